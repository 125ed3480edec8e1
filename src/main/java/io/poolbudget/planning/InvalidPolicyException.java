package io.poolbudget.planning;

/** A PoolPolicy the operator cannot plan, naming the field (for example "spec.targets[1].selector") and the fix. */
public class InvalidPolicyException extends RuntimeException {
    private final String field;

    public InvalidPolicyException(String field, String problem) {
        super(field + " " + problem);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
