package io.poolbudget.api.argo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * An Argo Rollouts {@code Rollout} (argoproj.io/v1alpha1), as far as sizing reads and writes it: its replicas,
 * selector, pod template and strategy, and the status that tells it has rolled out. Not a CustomResource of ours:
 * no CRD is generated for it (Argo Rollouts installs its own), and what is not here is neither read nor written.
 */
@Group("argoproj.io")
@Version("v1alpha1")
@Kind("Rollout")
@Plural("rollouts")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
// bound as itself, not through HasMetadata's deserializer, which knows no Rollout kind
@com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = com.fasterxml.jackson.databind.JsonDeserializer.None.class)
public class ArgoRollout implements HasMetadata, Namespaced {
    public static final String API_VERSION = "argoproj.io/v1alpha1";
    public static final String CRD = "rollouts.argoproj.io";

    private String apiVersion = API_VERSION;
    private String kind = "Rollout";
    private ObjectMeta metadata;
    private Spec spec;
    private Status status;

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Spec {
        public Integer replicas;
        public LabelSelector selector;
        public PodTemplateSpec template;
        /** A Deployment whose template the Rollout runs: its own template is then empty. */
        public java.util.Map<String, Object> workloadRef;
        public Integer minReadySeconds;
        public Boolean paused;
        public Strategy strategy;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Strategy {
        public CanaryStrategy canary;
        public BlueGreenStrategy blueGreen;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class CanaryStrategy {
        public io.fabric8.kubernetes.api.model.IntOrString maxSurge;
        public io.fabric8.kubernetes.api.model.IntOrString maxUnavailable;
        public java.util.List<Step> steps;
        public java.util.Map<String, Object> trafficRouting;
        public Boolean dynamicStableScale;
        public Integer scaleDownDelaySeconds;
        public Integer minPodsPerReplicaSet;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Step {
        public Integer setWeight;
        public CanaryScale setCanaryScale;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class CanaryScale {
        public Integer replicas;
        public Integer weight;
        public Boolean matchTrafficWeight;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class BlueGreenStrategy {
        public Integer previewReplicaCount;
        public Integer scaleDownDelaySeconds;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Status {
        /** Argo writes the generation it has seen as a string. */
        public String observedGeneration;
        public Integer replicas;
        public Integer updatedReplicas;
        public Integer readyReplicas;
        public Integer availableReplicas;
        public String currentPodHash;
        public String stableRS;
        public String phase;
        public String message;
    }

    @Override
    public ObjectMeta getMetadata() { return metadata; }
    @Override
    public void setMetadata(ObjectMeta metadata) { this.metadata = metadata; }
    @Override
    public String getApiVersion() { return apiVersion; }
    @Override
    public void setApiVersion(String apiVersion) { this.apiVersion = apiVersion; }
    @Override
    public String getKind() { return kind; }
    public void setKind(String kind) { this.kind = kind; }
    public Spec getSpec() { return spec; }
    public void setSpec(Spec spec) { this.spec = spec; }
    public Status getStatus() { return status; }
    public void setStatus(Status status) { this.status = status; }
}
