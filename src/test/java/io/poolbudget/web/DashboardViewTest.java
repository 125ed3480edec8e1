package io.poolbudget.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.poolbudget.api.v1alpha1.BudgetStatus;
import io.poolbudget.api.v1alpha1.DatabaseSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.PoolPolicySpec;
import io.poolbudget.api.v1alpha1.PoolPolicyStatus;
import io.poolbudget.api.v1alpha1.TargetStatus;
import io.poolbudget.web.DashboardView.PolicyView;
import io.poolbudget.web.DashboardView.Query;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DashboardViewTest {
    private static final Duration WINDOW = Duration.ofMinutes(3);

    @Test
    void pagesAreSortedByNamespaceAndNameAndTotalsCoverEveryKeptPolicy() {
        List<PoolPolicy> all = new ArrayList<>();
        IntStream.range(0, 60).forEach(i -> all.add(policy(i % 2 == 0 ? "b" : "a", "p" + (100 + i), 10, 4, false)));
        var page2 = DashboardView.page(all, List.of(), new Query(null, null, false, 2, 25), WINDOW);
        assertThat(page2.pages()).isEqualTo(3);
        assertThat(page2.namespaces()).containsExactly("a", "b");
        assertThat(page2.policies()).hasSize(25);
        assertThat(page2.policies().get(0).namespace()).isEqualTo("a");
        assertThat(page2.policies().get(5).namespace() + "/" + page2.policies().get(5).name()).isEqualTo("b/p100");
        assertThat(page2.totals().policies()).isEqualTo(60);
        assertThat(page2.totals().budget()).isEqualTo(600);
        assertThat(page2.totals().allocated()).isEqualTo(240);
        var last = DashboardView.page(all, List.of(), new Query("a", null, false, 99, 25), WINDOW);
        assertThat(last.page()).isEqualTo(2); // clamped to the last page
        assertThat(last.policies()).hasSize(5).allMatch(p -> p.namespace().equals("a"));
    }

    @Test
    void filtersByNameDatabaseOrWorkloadAndByProblems() {
        var ok = policy("shop", "orders", 10, 4, false);
        var bad = policy("shop", "billing", 10, 14, true);
        var byWorkload = DashboardView.page(List.of(ok, bad), List.of(), new Query(null, "API-orders", false, 1, 25),
                WINDOW);
        assertThat(byWorkload.policies()).extracting(PolicyView::name).containsExactly("orders");
        var byDatabase = DashboardView.page(List.of(ok, bad), List.of(), new Query(null, "billing-db", false, 1, 25),
                WINDOW);
        assertThat(byDatabase.policies()).extracting(PolicyView::name).containsExactly("billing");
        var problems = DashboardView.page(List.of(ok, bad), List.of(), new Query(null, null, true, 1, 25), WINDOW);
        assertThat(problems.policies()).extracting(PolicyView::name).containsExactly("billing");
        assertThat(problems.policies().get(0).problem()).isTrue();
        assertThat(problems.totals().withProblems()).isEqualTo(1);
    }

    @Test
    void aPendingRaiseSaysWhenTheWindowEndsAndEventsAreTheNewestFiveOfThisIncarnation() {
        var p = policy("shop", "orders", 10, 4, false);
        p.getStatus().getTargets().get(0).setState("Pending");
        p.getStatus().getTargets().get(0).setPendingSince("2026-11-22T10:00:00Z");
        List<Event> events = new ArrayList<>();
        IntStream.range(0, 8).forEach(i -> events.add(event(p, "uid-orders", "R" + i, "2026-11-22T10:0" + i + ":00Z")));
        events.add(event(p, "uid-of-a-deleted-namesake", "Old", "2026-11-22T11:00:00Z"));
        var view = DashboardView.page(List.of(p), events, new Query(null, null, false, 1, 25), WINDOW).policies()
                .get(0);
        assertThat(view.targets().get(0).raiseAt()).isEqualTo("2026-11-22T10:03:00Z");
        assertThat(view.events()).extracting(DashboardView.EventView::reason).containsExactly("R7", "R6", "R5", "R4",
                "R3");
    }

    @Test
    void aPolicyNotYetReconciledIsShownWithoutFigures() {
        var p = policy("shop", "new", 10, 4, false);
        p.setStatus(null);
        var page = DashboardView.page(List.of(p), List.of(), new Query(null, null, false, 1, 1000), WINDOW);
        assertThat(page.size()).isEqualTo(DashboardView.MAX_PAGE_SIZE);
        assertThat(page.policies().get(0).budget()).isNull();
        assertThat(page.policies().get(0).problem()).isFalse();
        assertThat(page.totals().budget()).isZero();
    }

    private static PoolPolicy policy(String ns, String name, long budget, long allocated, boolean oversubscribed) {
        var p = new PoolPolicy();
        p.setMetadata(new ObjectMetaBuilder().withNamespace(ns).withName(name).withUid("uid-" + name).withGeneration(1L)
                .build());
        var spec = new PoolPolicySpec();
        var db = new DatabaseSpec();
        db.setName(name + "-db");
        spec.setDatabase(db);
        p.setSpec(spec);
        var st = new PoolPolicyStatus();
        var b = new BudgetStatus();
        b.setConnections(budget);
        st.setBudget(b);
        st.setAllocated(allocated);
        st.setUnallocated(budget - allocated);
        var t = new TargetStatus();
        t.setKind("Deployment");
        t.setName("api-" + name);
        t.setState("Applied");
        st.setTargets(new ArrayList<>(List.of(t)));
        st.setConditions(new ArrayList<>(List.of(new ConditionBuilder().withType("Oversubscribed")
                .withStatus(oversubscribed ? "True" : "False").build())));
        p.setStatus(st);
        return p;
    }

    private static Event event(PoolPolicy p, String uid, String reason, String last) {
        return new EventBuilder().withNewMetadata().withName(reason).endMetadata().withNewInvolvedObject()
                .withNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName()).withUid(uid)
                .endInvolvedObject().withReason(reason).withType("Normal").withMessage("m").withLastTimestamp(last)
                .build();
    }

    @Test
    void demandIsShownBesideTheAllocationOnlyWhereTheAllocationFollowsIt() {
        var t = new io.poolbudget.api.v1alpha1.TargetStatus();
        assertThat(DashboardView.demand(t)).as("mode Weights").isNull();
        t.setNominalPoolSize(10);
        assertThat(DashboardView.demand(t)).isEqualTo("no demand reported, nominal 10");
        t.setDemand(7);
        t.setDemandSource("agent");
        t.setRecommendedPoolSize(12);
        assertThat(DashboardView.demand(t)).isEqualTo("demand 7 per pod (agent), nominal 10, Demand would give 12");
    }
}
