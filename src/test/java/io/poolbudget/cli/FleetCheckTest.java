package io.poolbudget.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** calibrate -f: whether the user's fleet can use the recommended budget, and what would fit if not. */
class FleetCheckTest {
    private static final String FLEET = """
            apiVersion: poolbudget.io/v1alpha1
            kind: PoolPolicy
            metadata: {name: orders-db, namespace: shop}
            spec:
              database: {cores: 8}
              injection: {preset: hikari-env}
              targets: [{name: api}]
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: api, namespace: shop}
            spec:
              replicas: 2
              selector: {matchLabels: {app: api}}
              template:
                metadata: {labels: {app: api}}
                spec: {containers: [{name: app, image: app}]}
            """;

    static List<String> check(int budget, boolean[] fits) throws Exception {
        var docs = Manifests.read("-", new ByteArrayInputStream(FLEET.getBytes(StandardCharsets.UTF_8)));
        var lines = FleetCheck.check(docs, budget, new PrintStream(PrintStream.nullOutputStream()), "fleet.yaml", fits);
        System.out.println("budget " + budget + ":\n" + String.join("\n", lines));
        return lines;
    }

    @Test
    void aBudgetTheMinimumsExceedIsOversubscribedAndSaysWhatWouldFit() throws Exception {
        boolean[] fits = new boolean[1];
        var lines = check(2, fits);
        assertThat(fits[0]).isFalse();
        assertThat(lines.get(0)).contains("PoolPolicy orders-db would be OVERSUBSCRIBED at a budget of 2",
                "4 peak pods at their minimum pool need 4 connections");
        assertThat(lines.get(1)).contains("a budget of 4", "fewer peak pods");
    }

    @Test
    void aBudgetThatFitsOnlyWithoutSurgeSaysSo() throws Exception {
        boolean[] fits = new boolean[1];
        var lines = check(3, fits);
        assertThat(fits[0]).isFalse();
        assertThat(lines.get(1)).contains("maxSurge: 0 on its Deployments", "which fits");
    }

    @Test
    void aBudgetThatFitsNamesATargetTheReserveKeepsAtOne() throws Exception {
        boolean[] fits = new boolean[1];
        var lines = check(5, fits);
        assertThat(fits[0]).isTrue();
        assertThat(lines.get(0)).contains("fits a budget of 5");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("note: Deployment/api gets a pool of 1 per pod",
                "rollout reserve (2 of its 4 peak pods)", "running pods use 2 of the budget's 5 connections"));
        lines = check(40, fits);
        assertThat(fits[0]).isTrue();
        assertThat(lines).noneSatisfy(l -> assertThat(l).contains("note:"));
    }

    @Test
    void theUsersDocumentsAreNotChanged() throws Exception {
        var docs = Manifests.read("-", new ByteArrayInputStream(FLEET.getBytes(StandardCharsets.UTF_8)));
        String before = docs.toString();
        FleetCheck.check(docs, 3, new PrintStream(PrintStream.nullOutputStream()), "fleet.yaml", new boolean[1]);
        assertThat(docs.toString()).isEqualTo(before);
    }
}
