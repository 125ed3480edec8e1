package io.poolbudget.cache;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.quarkus.kubernetes.client.KubernetesClientObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * The operator's client reads every object without the field sets of its managedFields ({@code fieldsV1}): Jackson
 * skips them in the response instead of building them and {@link PrunedStore} dropping them afterwards. Nothing
 * reads them (the stores drop the entries altogether, {@link PrunedStore}), and every write is a partial object or a patch of the operator's own, never a read object sent back.
 * <p>
 * The field sets are the largest part of most objects, a tree of nested maps with an entry for every field each
 * manager set; a start-up lists every Deployment, StatefulSet and HPA of the watched namespaces (50,000 objects in
 * bench/operator-scale.sh), so this is most of what a start-up reads and then throws away.
 */
@Singleton
public class WithoutFieldSets implements KubernetesClientObjectMapperCustomizer {
    @JsonIgnoreProperties("fieldsV1")
    private abstract static class NoFieldSets {}

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper);
    }

    public static ObjectMapper apply(ObjectMapper mapper) {
        return mapper.addMixIn(ManagedFieldsEntry.class, NoFieldSets.class);
    }
}
