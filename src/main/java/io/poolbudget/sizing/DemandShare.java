package io.poolbudget.sizing;

/**
 * What the demand solver gives one target. floor = the least it is ever given (nominal less what it may lend, never
 * below minPoolSize); ceiling = the most (nominal plus what it may borrow, never above maxPoolSize). size lies between
 * them; explanation says in one line why.
 */
public record DemandShare(String id, int nominal, int floor, int ceiling, int size, Double demand,
        String explanation) {}
