package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.ObserveGroupBy;
import io.poolbudget.api.v1alpha1.ObserveScope;
import io.poolbudget.api.v1alpha1.ObserveSpec;
import io.poolbudget.status.Observation;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The database a jdbcUrl names (as its driver reads it), the scope a policy asks for, and the scope's query. */
class ClientScopeTest {
    @Test
    void theDatabaseIsReadAsPostgresqlsDriverReadsIt() {
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db:5432/orders?ssl=true&ApplicationName=x"))
                .isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db1:5432,db2:5433/orders?targetServerType=primary"))
                .isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:postgresql://[::1]:5432/orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:postgresql:orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db/x?PGDBNAME=orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db/caf%C3%A9")).isEqualTo("café");
        // none named: the driver then connects to the database named like the account, which is not the apps'
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db:5432/")).isNull();
        assertThat(ClientScope.databaseOf("jdbc:postgresql:")).isNull();
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db:5432")).isNull(); // the driver refuses it
    }

    @Test
    void theDatabaseIsReadAsMariaDbsDriverReadsIt() {
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db:3306/orders?useSSL=false")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:mysql://db:3306/orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:mariadb:replication://db1,db2/orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:mariadb://address=(host=db)(port=3306)/orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db:3306/?database=orders")).isEqualTo("orders");
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db:3306/")).isNull();
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db:3306")).isNull();
    }

    @Test
    void hostileNamesAreReadAsNamesNothingMore() {
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db/a'b;DROP%20TABLE%20x;--")).isEqualTo(
                "a'b;DROP TABLE x;--");
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db/a'b;DROP")).isEqualTo("a'b;DROP");
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db/\u0431\u0430\u0437\u0430")).isEqualTo("\u0431\u0430"
                + "\u0437\u0430");
        String longName = "d".repeat(100_000);
        assertThat(ClientScope.databaseOf("jdbc:postgresql://db/" + longName)).isEqualTo(longName);
        assertThat(ClientScope.databaseOf("jdbc:mariadb://db/" + longName)).isEqualTo(longName);
        assertThat(ClientScope.databaseOf("jdbc:sqlserver://db;databaseName=orders")).isNull();
    }

    @Test
    void aPolicyCountsItsDatabaseByDefaultAndNamesItWhenTheUrlDoesNot() {
        var spec = new ObserveSpec();
        assertThat(ClientScope.of(spec, "jdbc:postgresql://db/orders")).isEqualTo(
                new ClientScope(ObserveScope.Database, "orders"));
        assertThat(ClientScope.of(spec, "jdbc:postgresql://db/orders").describe()).isEqualTo("database orders");
        spec.setDatabase("billing");
        assertThat(ClientScope.of(spec, "jdbc:mariadb://db:3306/").describe()).isEqualTo("database billing");

        var unnamed = ClientScope.of(new ObserveSpec(), "jdbc:postgresql://db:5432/");
        assertThat(unnamed.named()).isFalse();
        assertThat(unnamed.unnamed("jdbc:postgresql://db:5432/")).contains("its jdbcUrl names no database",
                "set spec.database.observe.database", "scope: Server", "named like the account");

        var user = new ObserveSpec();
        user.setScope(ObserveScope.User);
        user.setUser("app");
        assertThat(ClientScope.of(user, "jdbc:postgresql://db/orders").describe()).isEqualTo("user app");
        var server = new ObserveSpec();
        server.setScope(ObserveScope.Server);
        assertThat(ClientScope.of(server, "jdbc:postgresql://db/").named()).isTrue();
        assertThat(ClientScope.of(server, "jdbc:postgresql://db/").describe()).isEqualTo("the server");
    }

    @Test
    void theScopesNameIsBoundNeverWrittenIntoTheQuery() throws Exception {
        String hostile = "o'r\"d;ers -- \u00e9";
        for (Dialect dialect : Dialect.values()) {
            for (ObserveScope scope : ObserveScope.values()) {
                var db = new FakeDatabase();
                var read = DatabaseReader.count(db.connection(), dialect, ObserveGroupBy.ClientAddress,
                        new ClientScope(scope, scope == ObserveScope.Server ? null : hostile));
                String clients = db.prepared.get(0);
                assertThat(clients).as(dialect + " " + scope).doesNotContain("o'r").endsWith("GROUP BY 1, 2");
                if (scope == ObserveScope.Server) {
                    assertThat(clients).doesNotContain("?");
                    assertThat(db.bound).isEmpty();
                    assertThat(read.scope()).isEqualTo("the server");
                } else {
                    assertThat(clients).containsOnlyOnce("?").contains(column(dialect, scope));
                    assertThat(db.bound).containsExactly(hostile);
                    assertThat(read.scope()).endsWith(hostile);
                }
                assertThat(read.byClient()).isEqualTo(Map.of("10.88.0.5", 4L));
                assertThat(read.inUseByClient()).as("of the 4, those in use").isEqualTo(Map.of("10.88.0.5", 1L));
            }
        }
    }

    @Test
    void theConnectionsInUseAreThoseNotIdleOnPostgresqlAndNotAsleepOnMariaDb() {
        assertThat(Dialect.POSTGRESQL.clientsQuery(ObserveScope.Server))
                .contains("count(*), count(*) FILTER (WHERE state <> 'idle') FROM pg_stat_activity");
        assertThat(Dialect.MARIADB.clientsQuery(ObserveScope.Server))
                .contains("COUNT(*), SUM(p.COMMAND <> 'Sleep') FROM information_schema.PROCESSLIST p");
        var read = Observation.of(100, 3, Map.of("10.88.0.5", 4L), "the server").withInUse(Map.of("10.88.0.5", 1L))
                .withClientPods(Map.of()).withGhosts(List.of(), "fix");
        assertThat(read.inUse("10.88.0.5")).as("kept through the read's later steps").isEqualTo(1L);
        assertThat(read.inUse("10.88.0.6")).isNull();
        assertThat(new Observation(100, 3, Map.of("10.88.0.5", 4L), null).inUseByClient()).isEmpty();
    }

    private static String column(Dialect dialect, ObserveScope scope) {
        if (dialect == Dialect.POSTGRESQL) {
            return scope == ObserveScope.Database ? "datname = ?" : "usename = ?";
        }
        return scope == ObserveScope.Database ? "p.DB" : "p.USER AS BINARY) = CAST(?";
    }

    /** A connection that answers every query with one row and records what was prepared and bound. */
    private static final class FakeDatabase {
        final List<String> prepared = new ArrayList<>();
        final List<Object> bound = new ArrayList<>();

        Connection connection() {
            return proxy(Connection.class, (m, args) -> switch (m) {
                case "createStatement" -> proxy(Statement.class, (sm, sargs) -> sm.equals("executeQuery")
                        ? row(1L, 0L, 0L) : null);
                case "prepareStatement" -> {
                    prepared.add((String) args[0]);
                    yield proxy(PreparedStatement.class, (pm, pargs) -> switch (pm) {
                        case "setString" -> {
                            bound.add(pargs[1]);
                            yield null;
                        }
                        case "executeQuery" -> row("10.88.0.5", "app", 4L, 1L);
                        default -> null;
                    });
                }
                default -> null;
            });
        }

        /** One row: the MariaDB privilege check and the settings read columns 1 to 3, the clients query 1 to 4. */
        private static ResultSet row(Object... columns) {
            boolean[] read = {false};
            return proxy(ResultSet.class, (m, args) -> switch (m) {
                case "next" -> !read[0] && (read[0] = true);
                case "getLong" -> columns[(int) args[0] - 1] instanceof Number n ? n.longValue() : 1L;
                case "getString" -> String.valueOf(columns[(int) args[0] - 1]);
                default -> null;
            });
        }

        private interface Answer {
            Object answer(String method, Object[] args);
        }

        private static <T> T proxy(Class<T> type, Answer answer) {
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                    (p, m, args) -> m.getName().equals("close") ? null : answer.answer(m.getName(), args)));
        }
    }
}
