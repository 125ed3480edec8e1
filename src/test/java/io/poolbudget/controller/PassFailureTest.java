package io.poolbudget.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.OperatorException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** Issue 41, found 3: the words of Ready=False ReconcileError name the cause, not the client's dump of the request. */
class PassFailureTest {

    @Test
    void anAnswerOfTheApiServerIsItsCodeReasonAndMessage() {
        var refused = new KubernetesClientException(
                new StatusBuilder().withCode(413).withReason("RequestEntityTooLarge")
                        .withMessage("deployments.apps \"web\" is forbidden: denied request: too large").build());
        var wrapped = new OperatorException(new CompletionException(refused));
        assertThat(PassFailure.describe(wrapped)).isEqualTo("the API server answered 413 RequestEntityTooLarge: "
                + "deployments.apps \"web\" is forbidden: denied request: too large");
    }

    @Test
    void noAnswerAndOtherFailuresSayWhatTheyAre() {
        var unreachable = new KubernetesClientException("Operation: [patch] failed",
                new java.net.ConnectException("Connection refused"));
        assertThat(PassFailure.describe(new OperatorException(unreachable)))
                .isEqualTo("the API server could not be reached: Connection refused");
        assertThat(PassFailure.describe(new OperatorException(new IllegalStateException("no budget"))))
                .isEqualTo("IllegalStateException: no budget");
        assertThat(PassFailure.describe(new NullPointerException())).isEqualTo("NullPointerException");
    }
}
