package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * How the budget is shared between the policy's targets: by their weights alone, or following their demand. The
 * numbers have no schema default, so that a rule can tell a number given with mode Weights (where it would do nothing)
 * from one left out; their defaults are applied by the *OrDefault accessors.
 */
@ValidationRule(value = "(has(self.mode) && self.mode != 'Weights') || (!has(self.lendablePercent) && "
        + "!has(self.borrowingLimitPercent) && !has(self.periodSeconds))", message = AllocationSpec.WEIGHTS_MESSAGE)
public class AllocationSpec {
    public static final String WEIGHTS_MESSAGE = "allocation.lendablePercent, allocation.borrowingLimitPercent and "
            + "allocation.periodSeconds do nothing with mode Weights (the default): remove them, or set "
            + "allocation.mode: Demand or Recommend";
    /** Said of the policy: the CEL rule is on the spec, which sees both allocation and injection. */
    public static final String DEMAND_MESSAGE = "allocation.mode Demand moves connections only by live resize: set "
            + "spec.injection.resize: Live, or set allocation.mode: Recommend to see what Demand would do without "
            + "writing anything";
    public static final int DEFAULT_LENDABLE_PERCENT = 50;
    public static final int DEFAULT_BORROWING_LIMIT_PERCENT = 100;
    public static final int DEFAULT_PERIOD_SECONDS = 10;
    public static final int MAX_LENDABLE_PERCENT = 100;
    public static final int MAX_BORROWING_LIMIT_PERCENT = 1000;
    public static final int MIN_PERIOD_SECONDS = 5;
    public static final int MAX_PERIOD_SECONDS = 300;

    @Default("Weights")
    @JsonPropertyDescription("Weights (the default): each target's pool size follows from its weight alone (its "
            + "nominal share). Demand: the nominal share is where each target starts; a target lends the unused part "
            + "of its lendable share to targets whose demand (connections in use plus callers waiting, per pod) "
            + "exceeds theirs, within the borrowing limit and min/max pool sizes, so that the total never exceeds the "
            + "plan by weights. Needs spec.injection.resize: Live; pods take the sizes shrink-first. Recommend: "
            + "computes and reports the same in status (recommendedPoolSize) and writes nothing. docs/concepts.md.")
    private AllocationMode mode;

    @Min(0)
    @Max(MAX_LENDABLE_PERCENT)
    @JsonPropertyDescription("Demand and Recommend: the part of a target's nominal pool size, in percent, that it lends "
            + "to others while it does not use it (0 to 100, default 50). Its floor: nominal less this part, never "
            + "below minPoolSize.")
    private Integer lendablePercent;

    @Min(0)
    @Max(MAX_BORROWING_LIMIT_PERCENT)
    @JsonPropertyDescription("Demand and Recommend: how much a target may borrow above its nominal pool size, in "
            + "percent of it (0 to 1000, default 100: up to twice its nominal size), never above maxPoolSize.")
    private Integer borrowingLimitPercent;

    @Min(MIN_PERIOD_SECONDS)
    @Max(MAX_PERIOD_SECONDS)
    @JsonPropertyDescription("Demand and Recommend: seconds between two allocations, each from the targets' smoothed "
            + "demand (5 to 300, default 10).")
    private Integer periodSeconds;

    public AllocationMode getMode() { return mode; }
    public void setMode(AllocationMode mode) { this.mode = mode; }
    public Integer getLendablePercent() { return lendablePercent; }
    public void setLendablePercent(Integer lendablePercent) { this.lendablePercent = lendablePercent; }
    public Integer getBorrowingLimitPercent() { return borrowingLimitPercent; }
    public void setBorrowingLimitPercent(Integer percent) { this.borrowingLimitPercent = percent; }
    public Integer getPeriodSeconds() { return periodSeconds; }
    public void setPeriodSeconds(Integer periodSeconds) { this.periodSeconds = periodSeconds; }

    public int lendablePercentOrDefault() {
        return lendablePercent == null ? DEFAULT_LENDABLE_PERCENT : lendablePercent;
    }

    public int borrowingLimitPercentOrDefault() {
        return borrowingLimitPercent == null ? DEFAULT_BORROWING_LIMIT_PERCENT : borrowingLimitPercent;
    }

    public int periodSecondsOrDefault() {
        return periodSeconds == null ? DEFAULT_PERIOD_SECONDS : periodSeconds;
    }
}
