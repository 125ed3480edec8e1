package io.poolbudget.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poolbudget.decide.AgentReport;
import io.poolbudget.decide.LiveResize;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.Objects;

/** A pod's agent's answer (its status port's JSON, or the error the read failed with) as an {@link AgentReport}. */
final class AgentAnswers {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AgentAnswers() {}

    /**
     * What a pod's agent said, or why it said nothing. {@code since}: when the pod was first found not holding the
     * size published to it, carried while the same size is waited for; {@code now} is 0 for a pod that is not Ready
     * yet (a JVM still starting has no agent answering, and builds its pools at the published size): no deadline runs.
     */
    static AgentReport report(String response, Throwable error, Integer published, AgentScraper.Entry last,
            long now) {
        Integer lastConfirmed = last == null ? null : last.report().lastConfirmed();
        String problem = null;
        Integer agentSize = null;
        boolean confirmed = false;
        int holds = 0;
        Integer pools = null;
        Integer demand = null;
        Integer recent = null;
        if (error != null) {
            Throwable cause = error.getCause() != null ? error.getCause() : error;
            problem = cause instanceof ConnectException ? "no agent answers on port " + LiveResize.AGENT_PORT
                    : cause instanceof HttpTimeoutException ? AgentReport.SLOW
                            : AgentReport.UNREADABLE + " (" + cause.getClass().getSimpleName() + ")";
        } else {
            try {
                JsonNode body = JSON.readTree(response);
                pools = body.path("pools").size();
                agentSize = body.path("published").isInt() ? body.path("published").asInt() : null;
                confirmed = body.path("confirmed").asBoolean(false);
                demand = body.path("demand").isInt() && body.path("demand").asInt() >= 0
                        ? body.path("demand").asInt() : null;
                recent = demand != null && body.path("recent").isInt() && body.path("recent").asInt() >= 0
                        ? body.path("recent").asInt() : null;
                for (JsonNode pool : body.path("pools")) {
                    holds = Math.max(holds, pool.path("total").asInt(0));
                    if (problem == null && !pool.path("error").isNull() && !pool.path("error").isMissingNode()) {
                        problem = "pool " + pool.path("name").asText() + " cannot be resized: "
                                + pool.path("error").asText();
                    }
                }
                if (problem == null && !body.path("error").isNull() && !body.path("error").isMissingNode()) {
                    problem = "its agent cannot read the pools: " + body.path("error").asText();
                }
                if (problem == null && body.path("pools").isEmpty()) {
                    problem = "its agent found no pool it resizes (HikariCP or Agroal; other pools are not resized live)";
                }
            } catch (java.io.IOException e) {
                problem = "its agent's answer is not JSON";
            }
        }
        if (confirmed) {
            lastConfirmed = agentSize;
        }
        boolean done = confirmed && Objects.equals(agentSize, published);
        long since = done || now == 0 ? 0
                : last != null && last.report().since() > 0 && Objects.equals(last.forSize(), published)
                        ? last.report().since() : now;
        return new AgentReport(agentSize, confirmed, holds, lastConfirmed, problem, since, pools, demand, recent);
    }
}
