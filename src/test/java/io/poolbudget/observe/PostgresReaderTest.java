package io.poolbudget.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

class PostgresReaderTest {
    @Test
    void aRefusedLoginAnUnreachableServerAndAMissingGrantAreToldApart() {
        assertThat(PostgresReader.failure(new SQLException("password authentication failed for user \"m\"", "28P01"))
                .failure())
                .satisfies(f -> assertThat(f.reason()).isEqualTo("LoginFailed"));
        // HikariCP wraps the driver's error in a time-out without an SQLSTATE
        var timeout = new SQLTransientConnectionException("pool - Connection is not available", null,
                new SQLException("Connection to 10.0.0.9:5432 refused", "08001"));
        assertThat(PostgresReader.failure(timeout).failure().reason()).isEqualTo("Unreachable");
        assertThat(PostgresReader.failure(timeout).failure().message()).contains("Connection to 10.0.0.9:5432 refused");
        var refused = new SQLTransientConnectionException("pool - Connection is not available, request timed out",
                "28P01",
                new SQLException("FATAL: password authentication failed for user \"m\"", "28P01"));
        assertThat(PostgresReader.failure(refused).failure().message()).contains("password authentication failed")
                .doesNotContain("request timed out");
        assertThat(PostgresReader.failure(new SQLException("permission denied for view x", "42501")).failure().reason())
                .isEqualTo("PermissionDenied");
        assertThat(PostgresReader.failure(new SQLException("division by zero", "22012")).failure().reason())
                .isEqualTo("QueryFailed");
    }
}
