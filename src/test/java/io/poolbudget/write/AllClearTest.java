package io.poolbudget.write;

import static io.poolbudget.decide.PolicyPassTest.SPEC;
import static io.poolbudget.decide.PolicyPassTest.policy;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.decide.PassResult;
import io.poolbudget.memory.PolicyMemory;
import io.poolbudget.status.Conditions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 53, found 10: 14 s after a Warning LiveOverBudget, a Normal LiveWithinBudget said "the pods hold 18 of 10
 * connections now: within the budget again": the reason had moved to Oversubscribed, not the count. An all-clear only
 * when the status says the pods are within the budget and the count it states is.
 */
class AllClearTest {
    private final RecordingClient recording = new RecordingClient();
    private final PolicyMemory memory = new PolicyMemory();
    private final PolicyEvents events = new PolicyEvents(recording.client, memory);
    private final PoolPolicy policy = policy("db", SPEC);
    private final PassResult nothingWritten = new PassResult(null, null, List.of(), null);

    /** A status of {@code live} of 10 connections with condition Oversubscribed as given. */
    private static PoolPolicyStatus status(long live, String oversubscribed, String reason) {
        var st = new PoolPolicyStatus();
        var budget = new BudgetStatus();
        budget.setConnections(10L);
        st.setBudget(budget);
        st.setLiveConnections(live);
        st.setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType(Conditions.OVERSUBSCRIBED)
                .withStatus(oversubscribed).withReason(reason).withMessage(reason + " at " + live).build())));
        return st;
    }

    private static PoolPolicyStatus over(long live) {
        return status(live, Conditions.TRUE, Conditions.REASON_LIVE_OVER_BUDGET);
    }

    private static PoolPolicyStatus within(long live) {
        return status(live, Conditions.FALSE, Conditions.REASON_WITHIN_BUDGET);
    }

    private List<String> allClears() throws InterruptedException {
        return recording.sent(events).stream().filter(e -> PolicyEvents.LIVE_WITHIN_BUDGET.equals(e.getReason()))
                .map(Event::getMessage).toList();
    }

    private void reported(List<Condition> conditions) {
        memory.of(policy).reported(conditions);
    }

    @Test
    void aTrueAllClearIsSentOnce() throws InterruptedException {
        reported(over(18).getConditions());
        events.record(policy, nothingWritten, within(8));
        events.record(policy, nothingWritten, within(7));
        assertThat(allClears()).containsExactly("the pods hold 8 of 10 connections now: within the budget again");
    }

    @Test
    void noAllClearWhenTheReasonMovesToOversubscribedButOneOnceThePodsAreWithinTheBudget()
            throws InterruptedException {
        reported(over(18).getConditions());
        events.record(policy, nothingWritten, status(18, Conditions.TRUE, Conditions.REASON_OVERSUBSCRIBED));
        assertThat(allClears()).as("the plan does not fit: the pods are not within the budget").isEmpty();
        assertThat(recording.sent(events)).extracting(Event::getReason)
                .containsExactly(Conditions.REASON_OVERSUBSCRIBED);
        // the plan fits again and the pods hold what it gives: the moment reported ends, with the count
        events.record(policy, nothingWritten, within(9));
        assertThat(allClears()).containsExactly("the pods hold 9 of 10 connections now: within the budget again");
    }

    @Test
    void noAllClearWhileTheCountStatedIsAboveTheBudget() throws InterruptedException {
        reported(over(18).getConditions());
        events.record(policy, nothingWritten, within(18));
        assertThat(allClears()).isEmpty();
        events.record(policy, nothingWritten, within(10));
        assertThat(allClears()).containsExactly("the pods hold 10 of 10 connections now: within the budget again");
    }

    @Test
    void noAllClearWithoutAMomentOverTheBudget() throws InterruptedException {
        reported(within(8).getConditions());
        events.record(policy, nothingWritten, within(6));
        reported(status(18, Conditions.TRUE, Conditions.REASON_OVERSUBSCRIBED).getConditions());
        events.record(policy, nothingWritten, within(6));
        assertThat(allClears()).isEmpty();
    }
}
