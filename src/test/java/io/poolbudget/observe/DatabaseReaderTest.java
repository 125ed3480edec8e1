package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class DatabaseReaderTest {
    @Test
    void aRefusedLoginAnUnreachableServerAndAMissingGrantAreToldApart() {
        assertThat(
                Dialect.POSTGRESQL.failure(new SQLException("password authentication failed for user \"m\"", "28P01"))
                        .failure())
                .satisfies(f -> assertThat(f.reason()).isEqualTo("LoginFailed"));
        // HikariCP wraps the driver's error in a time-out without an SQLSTATE
        var timeout = new SQLTransientConnectionException("pool - Connection is not available", null,
                new SQLException("Connection to 10.0.0.9:5432 refused", "08001"));
        assertThat(Dialect.POSTGRESQL.failure(timeout).failure().reason()).isEqualTo("Unreachable");
        assertThat(Dialect.POSTGRESQL.failure(timeout).failure().message())
                .contains("Connection to 10.0.0.9:5432 refused");
        var refused = new SQLTransientConnectionException("pool - Connection is not available, request timed out",
                "28P01",
                new SQLException("FATAL: password authentication failed for user \"m\"", "28P01"));
        assertThat(Dialect.POSTGRESQL.failure(refused).failure().message()).contains("password authentication failed")
                .doesNotContain("request timed out");
        assertThat(Dialect.POSTGRESQL.failure(new SQLException("permission denied for view x", "42501")).failure()
                .reason())
                .isEqualTo("PermissionDenied");
        assertThat(Dialect.POSTGRESQL.failure(new SQLException("division by zero", "22012")).failure().reason())
                .isEqualTo("QueryFailed");
    }

    @Test
    void mariaDbAndMySqlUrlsAreReadWithMariaDbsDriverAndTheirFailuresNameTheirGrants() {
        assertThat(Dialect.of("jdbc:postgresql://db:5432/app")).isEqualTo(Dialect.POSTGRESQL);
        assertThat(Dialect.of("jdbc:mariadb://db:3306/app")).isEqualTo(Dialect.MARIADB);
        assertThat(Dialect.of("jdbc:mysql://db:3306/app")).isEqualTo(Dialect.MARIADB);
        assertThat(Dialect.of("jdbc:sqlserver://db")).isNull();
        assertThat(DatabaseReader.supports("jdbc:oracle:thin:@db")).isFalse();
        var config = new com.zaxxer.hikari.HikariConfig();
        Dialect.MARIADB.configure(config, "jdbc:mysql://db:3306/app?useSSL=false", "poolbudget-operator");
        assertThat(config.getJdbcUrl()).isEqualTo("jdbc:mariadb://db:3306/app?useSSL=false");
        assertThat(config.getDataSourceProperties()).containsEntry("connectionAttributes",
                "program_name:poolbudget-operator");

        var login = Dialect.MARIADB.failure(new SQLException("Access denied for user 'm'@'10.0.0.1'", "28000", 1045));
        assertThat(login.failure().reason()).isEqualTo("LoginFailed");
        assertThat(login.failure().message()).contains("'user'@'%'").doesNotContain("pg_hba");
        var grant = Dialect.MARIADB.failure(new SQLException("SELECT command denied to user 'm'@'%' for table "
                + "`performance_schema`.`session_connect_attrs`", "42000", 1142));
        assertThat(grant.failure().reason()).isEqualTo("PermissionDenied");
        assertThat(grant.failure().message()).contains("GRANT SELECT ON performance_schema.* TO it");
        assertThat(Dialect.MARIADB.failure(new SQLException("Access denied for user 'm'@'%' to database 'app'",
                "42000", 1044)).failure().message())
                .contains("name no database in it (jdbc:mariadb://host:3306/", "spec.database.observe.database");
        assertThat(Dialect.MARIADB.failure(new SQLException("Unknown table", "42S02", 1109)).failure().message())
                .contains("reading PROCESSLIST failed");
    }
}
