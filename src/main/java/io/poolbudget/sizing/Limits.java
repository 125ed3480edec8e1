package io.poolbudget.sizing;

/**
 * The bounds of every number a PoolPolicy may give, in one place: the CRD's schema declares them
 * (the API server rejects what lies outside), and the engine checks them again for input that
 * never met an API server ({@code plan}) or was stored under an older, looser CRD. Within them the
 * engine's arithmetic (64-bit, saturating where products can grow) cannot overflow.
 */
public final class Limits {
    private Limits() {}

    public static final int CORES = 100_000;
    public static final int SPINDLES = 100_000;
    public static final int CONNECTIONS_PER_CORE = 1_000;
    /** budget, maxConnections, reservedConnections: far above any real server (PostgreSQL's own cap is 262,143). Kept
     * below 10^7, which YAML 1.1 readers (PyYAML) would take for a string in the CRD's "1.0E7". */
    public static final int CONNECTIONS = 1_000_000;
    public static final int WEIGHT = 1_000_000;
    /** The largest pool size; also what a pod of an app with no pool limit is counted at (see {@link #noPoolLimit}). */
    public static final int POOL_SIZE = 1_000_000;
    public static final int POOLS_PER_POD = 1_000;
    /** fixedReplicas and terminatingPods. */
    public static final int REPLICAS = 1_000_000;
    /** A Kubernetes object name (DNS subdomain). */
    public static final int NAME_LENGTH = 253;
    /** A container name (DNS label). */
    public static final int CONTAINER_NAME_LENGTH = 63;
    public static final int CONTAINERS = 64;
    /** Identical database instances behind one endpoint (database.instances). */
    public static final int INSTANCES = 1_000;

    /**
     * Whether a pod's pool counted at {@code perPod} stands for no limit: a preset's app that has none without its
     * variable (or one derived from what the operator cannot see) is counted at {@link #POOL_SIZE}, which is then not a
     * number to show or to add up, but "any number".
     */
    public static boolean noPoolLimit(long perPod) {
        return perPod >= POOL_SIZE;
    }

    /** {@code value} as an int, or an error naming {@code field} and the allowed range. */
    public static int bounded(String field, long value, long min, long max) {
        Check.atLeast(field, value, min);
        Check.atMost(field, value, max);
        return (int) value;
    }

    /** Like {@link #bounded}, passing null through. */
    public static Integer bounded(String field, Long value, long min, long max) {
        return value == null ? null : bounded(field, value.longValue(), min, max);
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }

    static long saturatedMultiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi == 0 && lo >= 0) ? lo : Long.MAX_VALUE;
    }
}
