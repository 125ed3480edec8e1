package io.poolbudget.api.v1alpha1;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A database shared by several namespaces (cluster-scoped, like Kueue's ClusterQueue): its facts, which
 * namespaces may draw on it, and how its budget is split between them. PoolPolicies reference it with
 * {@code spec.databaseRef} instead of an inline {@code spec.database}.
 */
@Group(PoolPolicy.GROUP)
@Version(PoolPolicy.VERSION)
@ShortNames("dbbudget")
@AdditionalPrinterColumn(name = "Database", jsonPath = ".spec.database.name", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Budget", jsonPath = ".status.budget.connections", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Policies", jsonPath = ".status.policyCount", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Held-Outside", jsonPath = ".status.heldOutside", type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\"Ready\")].status", type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = AdditionalPrinterColumn.Type.DATE)
public class DatabaseBudget extends CustomResource<DatabaseBudgetSpec, DatabaseBudgetStatus> {}
