package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.poolbudget.api.v1alpha1.ObserveScope;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The ghost queries as a server receives them: the cut-off on the server's clock, and each reap's failures apart. */
class GhostQueriesTest {
    private static final ClientScope SHOP = new ClientScope(ObserveScope.Database, "shop");

    /** A connection that records each statement and its parameters; {@code rows} answers a query, kill a KILL. */
    private static class FakeServer {
        final List<String> queries = new ArrayList<>();
        final List<Map<Integer, Object>> parameters = new ArrayList<>();
        final List<String> executed = new ArrayList<>();
        Function<String, List<Object[]>> rows = q -> List.of();
        Function<String, SQLException> kill = sql -> null;

        Connection connection() {
            return proxy(Connection.class, (name, args) -> switch (name) {
                case "prepareStatement" -> prepared((String) args[0]);
                case "createStatement" -> statement();
                default -> null;
            });
        }

        private PreparedStatement prepared(String sql) {
            queries.add(sql);
            Map<Integer, Object> bound = new HashMap<>();
            parameters.add(bound);
            return proxy(PreparedStatement.class, (name, args) -> {
                if (name.startsWith("set")) {
                    bound.put((Integer) args[0], args[1]);
                    return null;
                }
                return name.equals("executeQuery") ? result(rows.apply(sql)) : null;
            });
        }

        private Statement statement() {
            return proxy(Statement.class, (name, args) -> {
                if (name.equals("execute")) {
                    executed.add((String) args[0]);
                    SQLException e = kill.apply((String) args[0]);
                    if (e != null) {
                        throw e;
                    }
                    return false;
                }
                return null;
            });
        }

        private static ResultSet result(List<Object[]> rows) {
            Iterator<Object[]> i = rows.iterator();
            Object[][] row = new Object[1][];
            return proxy(ResultSet.class, (name, args) -> switch (name) {
                case "next" -> {
                    row[0] = i.hasNext() ? i.next() : null;
                    yield row[0] != null;
                }
                case "getLong" -> ((Number) row[0][(Integer) args[0] - 1]).longValue();
                case "getBoolean" -> (Boolean) row[0][(Integer) args[0] - 1];
                default -> null;
            });
        }
    }

    @FunctionalInterface
    private interface Answer {
        Object answer(String method, Object[] args) throws Exception;
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[]{type},
                (p, m, args) -> m.getName().equals("close") ? null : answer.answer(m.getName(), args));
    }

    @Test
    void theCutOffIsAnAgeOnTheServersClockRoundedUpNeverTheOperatorsInstant() throws SQLException {
        Instant lastLive = Instant.parse("2026-11-28T10:00:00.250Z");
        long age = GhostQueries.age(lastLive, lastLive.plusMillis(95_001));
        assertThat(age).as("rounded up: never a cut-off later than the pod was seen live").isEqualTo(96);
        assertThat(GhostQueries.age(lastLive, lastLive)).isEqualTo(1);

        var pg = new FakeServer();
        pg.rows = q -> List.of(new Object[]{41L}, new Object[]{42L});
        assertThat(GhostQueries.ids(pg.connection(), Dialect.POSTGRESQL, SHOP, "10.244.0.17", age))
                .containsExactly(41L, 42L);
        assertThat(pg.queries.get(0)).contains("backend_start < clock_timestamp() - make_interval(secs => ?)")
                .contains("rolsuper").contains("datname = ?");
        assertThat(pg.parameters.get(0)).containsExactlyInAnyOrderEntriesOf(Map.of(1, "10.244.0.17", 2, 96.0,
                3, "shop"));

        var maria = new FakeServer();
        GhostQueries.ids(maria.connection(), Dialect.MARIADB, ClientScope.SERVER, "10.244.0.17", age);
        assertThat(maria.queries.get(0)).contains("p.TIME >= ?");
        assertThat(maria.parameters.get(0)).containsExactlyInAnyOrderEntriesOf(Map.of(1, "10.244.0.17", 2, 96L));
    }

    @Test
    void postgresqlSelectsAndEndsInOneStatementUnderTheSameConditions() throws SQLException {
        var pg = new FakeServer();
        pg.rows = q -> List.of(new Object[]{41L, true}, new Object[]{42L, false}, new Object[]{43L, true});
        var reaped = GhostQueries.end(pg.connection(), Dialect.POSTGRESQL, SHOP, "10.244.0.17", 96);
        assertThat(reaped.ended()).as("42 had ended already").isEqualTo(2);
        assertThat(pg.queries).singleElement().satisfies(q -> assertThat(q).startsWith(
                "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity").contains("make_interval(secs => ?)")
                .contains("rolsuper"));
        assertThat(pg.executed).isEmpty();

        var denied = new FakeServer() {
            @Override
            Connection connection() {
                return proxy(Connection.class, (name, args) -> {
                    throw new SQLException("permission denied to terminate process", "42501");
                });
            }
        };
        var r = GhostQueries.end(denied.connection(), Dialect.POSTGRESQL, SHOP, "10.244.0.17", 96);
        assertThat(r.ended()).isZero();
        assertThat((Throwable) r.refusal()).isNotNull();
        assertThat((Throwable) r.failure()).isNull();
    }

    @Test
    void mariadbEndsEveryBackendAFailedOrRefusedKillOfOneStopsNoOther() throws SQLException {
        var maria = new FakeServer();
        maria.rows = q -> List.of(new Object[]{1L}, new Object[]{2L}, new Object[]{3L}, new Object[]{4L},
                new Object[]{5L});
        maria.kill = sql -> switch (sql) {
            case "KILL CONNECTION 2" -> new SQLException("You are not owner of thread 2", "HY000", 1095);
            case "KILL CONNECTION 3" -> new SQLException("Lost connection", "08S01", 2013);
            case "KILL CONNECTION 4" -> new SQLException("Unknown thread id: 4", "HY000", 1094);
            default -> null;
        };
        var reaped = GhostQueries.end(maria.connection(), Dialect.MARIADB, SHOP, "10.244.0.17", 96);
        assertThat(maria.executed).as("every one tried").hasSize(5);
        assertThat(reaped.ended()).as("1 and 5; 4 had ended already").isEqualTo(2);
        assertThat((Throwable) reaped.refusal()).hasMessageContaining("not owner");
        assertThat((Throwable) reaped.failure()).hasMessageContaining("Lost connection");
    }
}
