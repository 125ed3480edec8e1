package io.poolbudget.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

class WithoutFieldSetsTest {
    private static final String DEPLOYMENT = """
            {"apiVersion":"apps/v1","kind":"Deployment",
             "metadata":{"name":"web","namespace":"shop","labels":{"db":"orders"},
               "managedFields":[
                 {"manager":"kubectl","operation":"Apply","apiVersion":"apps/v1","time":"2026-11-25T10:00:00Z",
                  "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{},"f:template":{"f:spec":{"f:containers":
                    {"k:{\\"name\\":\\"app\\"}":{".":{},"f:env":{"k:{\\"name\\":\\"DATABASE_URL\\"}":{".":{}}}}}}}}}},
                 {"manager":"poolbudget-0.1","operation":"Apply","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{}}}]},
             "spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"app","image":"pause",
               "env":[{"name":"DATABASE_URL","value":"jdbc:postgresql://db/app"}]}]}}}}
            """;

    private static Deployment read(ObjectMapper mapper) {
        return new KubernetesSerialization(mapper, true).unmarshal(DEPLOYMENT, Deployment.class);
    }

    @Test
    void theFieldSetsAreNotReadButTheEntriesAndTheRestOfTheObjectAre() {
        Deployment d = read(WithoutFieldSets.apply(new ObjectMapper()));
        assertThat(d.getMetadata().getManagedFields()).extracting(e -> e.getManager() + " " + e.getOperation() + " "
                + e.getFieldsType() + " " + e.getFieldsV1())
                .containsExactly("kubectl Apply FieldsV1 null", "poolbudget-0.1 Apply FieldsV1 null");
        assertThat(d.getMetadata().getManagedFields()).allSatisfy(e -> assertThat(e.getAdditionalProperties())
                .as("nor kept as an unknown property").isEmpty());
        assertThat(d.getMetadata().getManagedFields().get(0).getTime()).isEqualTo("2026-11-25T10:00:00Z");
        assertThat(d.getSpec().getReplicas()).isEqualTo(3);
        assertThat(d.getSpec().getTemplate().getSpec().getContainers().get(0).getEnv().get(0).getValue())
                .isEqualTo("jdbc:postgresql://db/app");
        assertThat(d.getMetadata().getLabels()).containsEntry("db", "orders");
    }

    @Test
    void aClientWithoutItReadsThemWhole() {
        Deployment d = read(new ObjectMapper());
        assertThat(d.getMetadata().getManagedFields().get(0).getFieldsV1().getAdditionalProperties())
                .containsKey("f:spec");
    }
}
