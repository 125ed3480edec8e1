package io.poolbudget.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/** How the database tells one cluster's connections from the others': exactly one field. */
@ValidationRule(value = "[has(self.clientCIDR), has(self.applicationNamePrefix), has(self.user)].filter(x, x).size() "
        + "== 1", message = "ledger.evidence needs exactly one of clientCIDR, applicationNamePrefix or user")
public class LedgerEvidence {
    @Size(max = 43)
    @ValidationRule(value = "isCIDR(self)", message = "ledger.evidence.clientCIDR must be an address range such as "
            + "10.88.0.0/16")
    @JsonPropertyDescription("The range the database sees this cluster's connections come from (its pods' or nodes' "
            + "addresses, after any NAT).")
    private String clientCIDR;

    @Size(min = 1, max = 63)
    @Pattern("^[^ ]+$")
    @JsonPropertyDescription("A prefix of the application_name every app of this cluster sets (eu-1-).")
    private String applicationNamePrefix;

    @Size(min = 1, max = 63)
    @Pattern("^[^ ]+$")
    @JsonPropertyDescription("The user this cluster's apps, and only they, log in as.")
    private String user;

    public String getClientCIDR() { return clientCIDR; }
    public void setClientCIDR(String clientCIDR) { this.clientCIDR = clientCIDR; }
    public String getApplicationNamePrefix() { return applicationNamePrefix; }
    public void setApplicationNamePrefix(String applicationNamePrefix) {
        this.applicationNamePrefix = applicationNamePrefix;
    }
    public String getUser() { return user; }
    public void setUser(String user) { this.user = user; }
}
