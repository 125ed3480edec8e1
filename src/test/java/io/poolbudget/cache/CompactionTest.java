package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CompactionTest {
    private static String json(String name) {
        return """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"NAME","namespace":"shop","uid":"u-NAME",
                 "labels":{"app":"NAME","tier":"web"},"annotations":{"deployment.kubernetes.io/revision":"3"},
                 "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1"}]},
                 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"NAME"}},
                  "strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":0}},
                  "template":{"metadata":{"labels":{"app":"NAME"}},"spec":{"terminationGracePeriodSeconds":30,
                   "containers":[{"name":"app","image":"pause","imagePullPolicy":"Always",
                    "env":[{"name":"DATABASE_URL","value":"jdbc:postgresql://db/app"},{"name":"POOL","valueFrom":
                     {"configMapKeyRef":{"name":"cm","key":"k"}}}],"resources":{}}],"x-unknown":{"a":[1,{"b":null}]}}}},
                 "status":{"replicas":2,"conditions":[{"type":"Available","status":"True","reason":"MinimumReplicasAvailable"}]}}
                """
                .replace("NAME", name);
    }

    @Test
    void anObjectSaysTheSameAfterCompaction() {
        Deployment d = Serialization.unmarshal(json("web"), Deployment.class);
        String before = Serialization.asJson(d);
        assertThat(Compaction.compact(d)).isSameAs(d);
        assertThat(Serialization.asJson(d)).isEqualTo(before);
        assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal()).isZero();
        assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv()).extracting(EnvVar::getName)
                .containsExactly("DATABASE_URL", "POOL");
    }

    @Test
    void emptyCollectionsAreSharedAndRepeatedStringsKeptOnce() {
        Deployment a = Compaction.compact(Serialization.unmarshal(json("web"), Deployment.class));
        Deployment b = Compaction.compact(Serialization.unmarshal(json("api"), Deployment.class));
        assertThat(a.getAdditionalProperties()).isSameAs(b.getMetadata().getAdditionalProperties());
        assertThat(a.getMetadata().getFinalizers()).isSameAs(b.getSpec().getTemplate().getSpec().getVolumes());
        var ca = a.getSpec().getTemplate().getSpec().getContainers().get(0);
        var cb = b.getSpec().getTemplate().getSpec().getContainers().get(0);
        assertThat(ca.getImagePullPolicy()).isSameAs(cb.getImagePullPolicy());
        assertThat(ca.getEnv().get(0).getValue()).isSameAs(cb.getEnv().get(0).getValue());
        // within one object: the selector's and the template's copy of the same label value
        assertThat(a.getSpec().getSelector().getMatchLabels().get("app"))
                .isSameAs(a.getSpec().getTemplate().getMetadata().getLabels().get("app"));
    }

    @Test
    void aCachedObjectCannotBeChangedByAccidentAndNullsAreLeftAlone() {
        Deployment d = Compaction.compact(Serialization.unmarshal(json("web"), Deployment.class));
        assertThatThrownBy(() -> d.getMetadata().getLabels().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> d.getSpec().getTemplate().getSpec().getContainers().clear())
                .isInstanceOf(UnsupportedOperationException.class);
        Deployment withNull = Serialization.unmarshal(json("web"), Deployment.class);
        withNull.getMetadata().setFinalizers(new ArrayList<>(Arrays.asList("a", null)));
        Compaction.compact(withNull);
        assertThat(withNull.getMetadata().getFinalizers()).containsExactly("a", null);
    }

    @Test
    void aLongStringIsNotShared() {
        String longer = "x".repeat(200);
        assertThat(Compaction.dedup(new String(longer))).isNotSameAs(Compaction.dedup(new String(longer)));
        String shorter = "ClusterFirst";
        assertThat(Compaction.dedup(new String(shorter))).isSameAs(Compaction.dedup(new String(shorter)));
    }

    @Test
    void aPolicySaysTheSameAfterCompactionAndSharesItsTargetsStrings() {
        String policy = """
                {"apiVersion":"poolbudget.io/v1alpha1","kind":"PoolPolicy","metadata":{"name":"db","namespace":"shop"},
                 "spec":{"database":{"cores":8},"injection":{"preset":"hikari-env"},
                  "targets":[{"kind":"Deployment","selector":{"matchLabels":{"db":"orders"}}}]},
                 "status":{"targetStates":{"Applied":2},
                  "targets":[{"kind":"Deployment","name":"api","state":"Applied","poolSize":4,"explanation":"EXPLAINED"},
                             {"kind":"Deployment","name":"web","state":"Applied","poolSize":4,"explanation":"EXPLAINED"}]}}
                """
                .replace("EXPLAINED", "peak pods 4 = 3 (current replicas 3) + 1 surge ".repeat(3));
        var p = Serialization.unmarshal(policy, io.poolbudget.api.v1alpha1.PoolPolicy.class);
        String before = Serialization.asJson(p);
        Compaction.compact(p);
        assertThat(Serialization.asJson(p)).isEqualTo(before);
        var targets = p.getStatus().getTargets();
        assertThat(targets.get(0).getState()).isSameAs(targets.get(1).getState());
        assertThat(targets.get(0).getKind()).isSameAs(targets.get(1).getKind());
        assertThat(p.getSpec().getTargets().get(0).getKind())
                .isEqualTo(io.poolbudget.api.v1alpha1.WorkloadKind.Deployment);
        assertThatThrownBy(() -> targets.add(null)).isInstanceOf(UnsupportedOperationException.class);
    }
}
