package io.poolbudget.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A database's connection budget and the workloads that share it. */
@Group(PoolPolicy.GROUP)
@Version(PoolPolicy.VERSION)
@ShortNames("ppol")
@AdditionalPrinterColumn(name = "Database", jsonPath = ".spec.database.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "DatabaseBudget", jsonPath = ".spec.databaseRef.name", type = AdditionalPrinterColumn.Type.STRING, priority = 1)
@AdditionalPrinterColumn(name = "Budget", jsonPath = ".status.budget.connections", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Allocated", jsonPath = ".status.allocated", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Targets", jsonPath = ".status.targetCount", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
@ValidationRule(value = "size(self.metadata.name) <= 63", message = "metadata.name must be at most 63 characters: it is written as a label value on the pods it sizes")
public class PoolPolicy extends CustomResource<PoolPolicySpec, PoolPolicyStatus> implements Namespaced {
    public static final String GROUP = "poolbudget.io";
    public static final String VERSION = "v1alpha1";
}
