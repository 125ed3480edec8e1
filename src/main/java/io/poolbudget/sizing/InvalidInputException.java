package io.poolbudget.sizing;

/** An input the engine cannot size, naming the field (as a PoolPolicy path) and what to do. */
public class InvalidInputException extends IllegalArgumentException {
    private final String field;

    public InvalidInputException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
