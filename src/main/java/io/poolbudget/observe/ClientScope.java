package io.poolbudget.observe;

import io.poolbudget.api.v1alpha1.ObserveScope;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Which client connections observe counts (spec.database.observe.scope), and the name the clients query is given as
 * a parameter: the database (observe.database, else the one the Secret's jdbcUrl names), the apps' account
 * (observe.user), or none for the whole server. {@code name} is null only for scope Database when nothing names a
 * database: that is a problem the policy's status names, never a silent count of the whole server.
 */
public record ClientScope(ObserveScope scope, String name) {
    public static final ClientScope SERVER = new ClientScope(ObserveScope.Server, null);

    /** The scope a policy's observe asks for, with the Secret's jdbcUrl (of a supported {@link Dialect}). */
    static ClientScope of(ObserveSpec spec, String jdbcUrl) {
        ObserveScope scope = spec.getScope() == null ? ObserveScope.Database : spec.getScope();
        return switch (scope) {
            case Server -> SERVER;
            case User -> new ClientScope(scope, spec.getUser());
            case Database -> new ClientScope(scope, spec.getDatabase() != null ? spec.getDatabase()
                    : databaseOf(jdbcUrl));
        };
    }

    /** Whether the scope names what it counts (only Database can lack it, or User in a spec the CRD did not check). */
    boolean named() {
        return scope == ObserveScope.Server || name != null;
    }

    /** What the count is of, as status says it: "database orders", "user app", "the server". */
    public String describe() {
        return switch (scope) {
            case Server -> "the server";
            case User -> "user " + name;
            case Database -> "database " + name;
        };
    }

    /** Why a scope is not {@link #named()}, and the fix, after "Secret <name>: ". */
    String unnamed(String jdbcUrl) {
        if (scope == ObserveScope.User) {
            return "scope User counts the connections of one account and spec.database.observe.user names none: set "
                    + "it to the account the apps log in as";
        }
        return "its jdbcUrl names no database (jdbc:postgresql://host:5432/orders, jdbc:mariadb://host:3306/orders "
                + "name orders) and scope Database counts the connections to one"
                + (Dialect.of(jdbcUrl) == Dialect.POSTGRESQL ? " (PostgreSQL's driver then connects to the database "
                        + "named like the account, which is not taken for the apps')" : "")
                + ": set spec.database.observe.database to the apps' database, or scope: Server to count every "
                + "connection of the server";
    }

    /**
     * The database a jdbcUrl names, as its driver reads it (several hosts, parameters, percent-encoding; PostgreSQL's
     * PGDBNAME parameter, MariaDB's database parameter), or null if it names none or its driver does not accept it.
     */
    static String databaseOf(String jdbcUrl) {
        Dialect dialect = Dialect.of(jdbcUrl);
        if (dialect == Dialect.POSTGRESQL) {
            Properties p = org.postgresql.Driver.parseURL(jdbcUrl, null);
            return p == null ? null : blankToNull(p.getProperty("PGDBNAME"));
        }
        if (dialect == Dialect.MARIADB) {
            String url = jdbcUrl.startsWith(Dialect.MYSQL_PREFIX) ? "jdbc:mariadb:" + jdbcUrl.substring(
                    Dialect.MYSQL_PREFIX.length()) : jdbcUrl;
            try {
                var config = org.mariadb.jdbc.Configuration.parse(url);
                return config == null ? null : blankToNull(config.database());
            } catch (SQLException e) {
                return null; // the driver refuses the URL: the read reports that
            }
        }
        return null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
