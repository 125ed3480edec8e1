package io.poolbudget.it;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * Every status of one policy the operator wrote while this watched it: the over-budget and not-Ready reports
 * among them, and the most liveConnections it reported. For tests that a routine change raises no alarm.
 */
final class StatusLog implements Watcher<PoolPolicy> {
    private final List<String> alarms = new ArrayList<>();
    private final List<Long> clears = new ArrayList<>();
    private boolean liveOver;
    private long mostLive;

    @Override
    public synchronized void eventReceived(Action action, PoolPolicy p) {
        if (p.getStatus() == null) {
            return;
        }
        if (p.getStatus().getLiveConnections() != null) {
            mostLive = Math.max(mostLive, p.getStatus().getLiveConnections());
        }
        boolean over = p.getStatus().getConditions().stream().anyMatch(c -> "Oversubscribed".equals(c.getType())
                && "LiveOverBudget".equals(c.getReason()));
        if (liveOver && !over) {
            clears.add(p.getStatus().getLiveConnections());
        }
        liveOver = over;
        for (Condition c : p.getStatus().getConditions()) {
            if (("Oversubscribed".equals(c.getType()) && "True".equals(c.getStatus()))
                    || ("Ready".equals(c.getType()) && "False".equals(c.getStatus()))) {
                alarms.add(c.getType() + "=" + c.getStatus() + " " + c.getReason() + ": " + c.getMessage()
                        + " (liveConnections " + p.getStatus().getLiveConnections() + ")");
            }
        }
    }

    synchronized List<String> alarms() {
        return List.copyOf(alarms);
    }

    synchronized long mostLive() {
        return mostLive;
    }

    /** liveConnections of each status that ended an over-budget report (LiveOverBudget to anything else). */
    synchronized List<Long> clears() {
        return List.copyOf(clears);
    }

    @Override
    public void onClose(WatcherException cause) {}
}
