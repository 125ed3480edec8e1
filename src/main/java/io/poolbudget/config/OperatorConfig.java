package io.poolbudget.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The operator's own settings, each declared once here with its default, under {@code poolbudget.}: as a property
 * ({@code poolbudget.stabilization-window}) or as its environment variable ({@code POOLBUDGET_STABILIZATION_WINDOW}),
 * which the chart sets from its values. docs/reference/configuration.md lists them in one table ({@code
 * ConfigurationDocsTest} checks that it names every one). Which namespaces are watched is the operator SDK's own
 * setting (see {@link WatchedNamespaces}).
 */
@ConfigMapping(prefix = "poolbudget")
public interface OperatorConfig {

    /** How long a raise of a target's pool size is held after it is first wanted, so that a flapping plan settles. */
    @WithDefault("3m")
    Duration stabilizationWindow();

    /**
     * How long the pods' declared total must stay above the budget before LiveOverBudget is reported: a pod that has
     * just started may not have opened its pool yet, and one that is shutting down may have closed it. Pods the operator
     * has not sized yet are reported at once.
     */
    @WithDefault("15s")
    Duration liveOverBudgetGrace();

    /**
     * The operator's own image, which resize mode Live's init container copies the agent from (the chart sets it to
     * the image it runs). Without it, policies with resize: Live are sized by rollouts.
     */
    Optional<String> agentImage();

    SharedBudgets sharedBudgets();

    Dashboard dashboard();

    LeaderElection leaderElection();

    /** DatabaseBudgets shared by namespaces (their controller, and the policies' spec.databaseRef). */
    interface SharedBudgets {
        /** Read DatabaseBudgets; where off (or where only some namespaces are watched) a policy needs its own database. */
        @WithDefault("true")
        boolean enabled();
    }

    /** The read-only dashboard at /dashboard/. */
    interface Dashboard {
        /** Serve it (it needs list and watch on Events). */
        @WithDefault("true")
        boolean enabled();
    }

    /** Leader election through a Lease, so that several replicas can run and one reconciles. */
    interface LeaderElection {
        /** Elect a leader (the chart turns it on); off for a jar run from a laptop. */
        @WithDefault("false")
        boolean enabled();

        /** The Lease's namespace: the pod's own (the chart passes POD_NAMESPACE). */
        Optional<String> namespace();

        /** This replica's name in the Lease: the pod's (the chart passes POD_NAME). */
        Optional<String> identity();
    }
}
