package io.poolbudget.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A status rebuilt with the same content is the same status (no write); any changed field is not. */
class SameStatusTest {
    private static PoolPolicyStatus status(String state, Long allocated) {
        var target = new TargetStatus();
        target.setKind("Deployment");
        target.setName("web");
        target.setState(state);
        var status = new PoolPolicyStatus();
        status.setAllocated(allocated);
        status.setTargets(new ArrayList<>(List.of(target)));
        return status;
    }

    @Test
    void theSameContentInNewObjectsIsTheSameStatus() {
        assertThat(SameStatus.as(status("Applied", 12L), status("Applied", 12L))).isTrue();
        assertThat(SameStatus.as(new PoolPolicyStatus(), new PoolPolicyStatus())).isTrue();
    }

    @Test
    void aChangedFieldAnywhereIsAnotherStatus() {
        assertThat(SameStatus.as(status("Rolling", 12L), status("Applied", 12L))).isFalse();
        assertThat(SameStatus.as(status("Applied", 12L), status("Applied", 13L))).isFalse();
        assertThat(SameStatus.as(status("Applied", 12L), null)).isFalse();
        assertThat(SameStatus.as(status("Applied", null), status("Applied", 12L))).isFalse();
    }
}
