package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One recent rollout of a workload and the most of its old pods seen terminating at once. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TerminatingMark {
    @JsonPropertyDescription("The revision of the rollout's new pods (their pod-template-hash or controller-revision-hash "
            + "label).")
    private String revision;

    @JsonPropertyDescription("The most old pods of that rollout seen terminating at once while its new pods ran.")
    private Long pods;

    public TerminatingMark() {}

    public TerminatingMark(String revision, Long pods) {
        this.revision = revision;
        this.pods = pods;
    }

    public String getRevision() { return revision; }
    public void setRevision(String revision) { this.revision = revision; }
    public Long getPods() { return pods; }
    public void setPods(Long pods) { this.pods = pods; }
}
