package io.poolbudget.planning;

import io.poolbudget.api.v1alpha1.DatabaseSpec;
import io.poolbudget.api.v1alpha1.PoolPolicy;
import io.poolbudget.api.v1alpha1.Preset;
import io.poolbudget.api.v1alpha1.WorkloadKind;
import io.poolbudget.sizing.Budget;
import io.poolbudget.sizing.InvalidInputException;

/**
 * The client side of a pooler tier. A policy whose spec.database.pooler names a pooler Deployment (PgBouncer) sizes its
 * apps against the client connections that pooler accepts, max_client_conn × its pods, not against the database: the
 * pooler's server side is a target of a policy of its own (preset pgbouncer), counted against the database there.
 * The operator and {@code plan} both take the budget from here.
 */
public final class PoolerTier {
    static final String FIELD = "spec.database.pooler";

    private PoolerTier() {}

    /** Whether the policy's apps connect through a pooler. */
    public static boolean behindPooler(PoolPolicy policy) {
        return policy.getSpec() != null && policy.getSpec().getDatabase() != null
                && policy.getSpec().getDatabase().getPooler() != null;
    }

    /**
     * The database a policy's status, metrics and dashboard name: its DatabaseBudget, its database's display name, or
     * for apps behind a pooler with none, "clients of pooler NAME".
     */
    public static String databaseName(PoolPolicy policy) {
        if (policy.getSpec() == null || policy.getSpec().getDatabase() == null) {
            return SharedBudgets.ref(policy);
        }
        var db = policy.getSpec().getDatabase();
        return db.getName() == null && db.getPooler() != null ? "clients of pooler " + db.getPooler().getName()
                : db.getName();
    }

    /** The client connections the policy's apps may hold together; throws naming the field at fault. */
    public static Budget budget(PoolPolicy policy, WorkloadCatalog catalog) {
        DatabaseSpec db = policy.getSpec().getDatabase();
        var ref = db.getPooler();
        if (db.getCores() != null || db.getBudget() != null || db.getMaxConnections() != null
                || db.getObserve() != null) {
            // the CRD's CEL rule, for the plan command
            throw new InvalidPolicyException(FIELD, DatabaseSpec.POOLER_MESSAGE.substring("database.pooler ".length()));
        }
        if (ref.getName() == null || ref.getName().isBlank()) {
            throw new InvalidPolicyException(FIELD + ".name", "is required: the pooler's Deployment in this namespace");
        }
        String namespace = policy.getMetadata() == null ? null : policy.getMetadata().getNamespace();
        Workload pooler = catalog.find(WorkloadKind.Deployment, namespace, ref.getName())
                .orElseThrow(() -> new InvalidPolicyException(FIELD + ".name", "names Deployment/" + ref.getName()
                        + ", which does not exist in this namespace: create the pooler, or name the Deployment "
                        + "that runs it"));
        long limit;
        String source;
        if (ref.getMaxClientConn() != null) {
            limit = ref.getMaxClientConn();
            source = FIELD + ".maxClientConn";
        } else if (pooler.clientLimit() == null) {
            limit = Preset.PGBOUNCER_MAX_CLIENT_CONN;
            source = "PgBouncer's default: " + pooler.id() + " sets no " + String.join(" or ", Preset.CLIENT_LIMIT_ENV);
        } else if (pooler.clientLimit() == Workload.WORKERS_UNKNOWN) {
            throw new InvalidPolicyException(FIELD + ".maxClientConn", "is required here: " + pooler.id() + " sets "
                    + String.join(" or ", Preset.CLIENT_LIMIT_ENV) + " to what its spec does not tell (valueFrom, or "
                    + "not a whole number): set maxClientConn to the pooler's max_client_conn");
        } else {
            limit = pooler.clientLimit();
            source = "from " + pooler.id() + "'s pod template";
        }
        long reserved = db.getReservedConnections() == null ? 0 : db.getReservedConnections();
        // while the pooler rolls (every size its own policy changes), maxUnavailable of its pods accept nobody
        int pods = pooler.replicas();
        String podsWhy = pods == 1 ? "1 pod" : pods + " pods";
        if (pooler.rollout() instanceof io.poolbudget.sizing.Rollout.RollingUpdate r && pods > 0) {
            int down = (int) Math.min(pods, r.unavailable(pods));
            if (down > 0) {
                podsWhy = (pods - down) + (pods - down == 1 ? " pod" : " pods") + " (" + pods + " replicas − " + down
                        + " maxUnavailable while it rolls)";
                pods -= down;
            }
        }
        try {
            return Budget.pooler(limit, source, pods, podsWhy, pooler.id(), reserved);
        } catch (InvalidInputException e) {
            throw new InvalidPolicyException("spec." + e.field(), e.getMessage().substring(e.field().length() + 1));
        }
    }
}
