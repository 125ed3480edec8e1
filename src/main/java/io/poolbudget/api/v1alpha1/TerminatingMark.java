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

    @JsonPropertyDescription("When that was seen (RFC 3339), written when the mark is learned or raised: the mark lapses "
            + "24 h later, or after 3 later rollouts, whichever comes first.")
    private String seen;

    public TerminatingMark() {}

    public TerminatingMark(String revision, Long pods) {
        this(revision, pods, null);
    }

    public TerminatingMark(String revision, Long pods, String seen) {
        this.revision = revision;
        this.pods = pods;
        this.seen = seen;
    }

    public String getRevision() { return revision; }
    public void setRevision(String revision) { this.revision = revision; }
    public Long getPods() { return pods; }
    public void setPods(Long pods) { this.pods = pods; }
    public String getSeen() { return seen; }
    public void setSeen(String seen) { this.seen = seen; }
}
