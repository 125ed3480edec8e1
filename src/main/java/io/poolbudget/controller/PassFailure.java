package io.poolbudget.controller;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * What a pass that failed unexpectedly says on its policy: the cause in a user's words, not the client's dump of the
 * request (its URL, the whole Status object) nor the wrappers JOSDK and the write threads put around it.
 */
public final class PassFailure {
    private PassFailure() {}

    public static String describe(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause
                && (cause instanceof io.javaoperatorsdk.operator.OperatorException
                        || cause instanceof java.util.concurrent.CompletionException
                        || cause.getClass() == RuntimeException.class)) {
            cause = cause.getCause();
        }
        if (cause instanceof KubernetesClientException k && k.getCode() > 0) {
            var status = k.getStatus();
            String reason = status == null || status.getReason() == null ? "" : " " + status.getReason();
            String message = status != null && status.getMessage() != null ? status.getMessage() : "no message";
            return "the API server answered " + k.getCode() + reason + ": " + message;
        }
        if (cause instanceof KubernetesClientException k) {
            // no answer at all: the message is the client's own, without a Status to dump
            return "the API server could not be reached: " + (k.getCause() != null ? k.getCause().getMessage()
                    : k.getMessage());
        }
        return cause.getClass().getSimpleName() + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }
}
