package io.poolbudget.sizing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BudgetTest {

    @Test
    void aPoolerAcceptsItsClientLimitPerPodLessWhatIsReserved() {
        var two = Budget.pooler(200, "MAX_CLIENT_CONN", 2, "Deployment/pgbouncer", 30);
        assertThat(two.connections()).isEqualTo(370);
        assertThat(two.term()).isEqualTo(Budget.Term.POOLER);
        assertThat(two.explanation()).startsWith("budget 370 = max_client_conn 200 (MAX_CLIENT_CONN) × 2 pods of "
                + "Deployment/pgbouncer − 30 reserved");
        assertThat(Budget.pooler(100, "default", 0, "Deployment/pgbouncer", 0).connections()).as("no pods").isZero();
        assertThat(Budget.pooler(10, "default", 1, "Deployment/pgbouncer", 50).connections()).as("all reserved")
                .isZero();
    }

    @Test
    void formulaIsCoresTimesConnectionsPerCorePlusSpindles() {
        var budget = Budget.of(new DatabaseInput(4, 1, 2, null, 0, null));
        assertThat(budget.connections()).isEqualTo(9);
        assertThat(budget.term()).isEqualTo(Budget.Term.FORMULA);
        assertThat(budget.explanation()).isEqualTo(
                "budget 9 = cores 4 × 2 per core + 1 effective spindles = 9; no maxConnections cap");
    }

    @Test
    void maxConnectionsMinusReservedCapsTheFormula() {
        var within = Budget.of(new DatabaseInput(4, 0, 2, 100, 10, null));
        assertThat(within.connections()).isEqualTo(8);
        assertThat(within.term()).isEqualTo(Budget.Term.FORMULA);
        assertThat(within.explanation()).contains("within maxConnections 100 − 10 reserved = 90");

        var capped = Budget.of(new DatabaseInput(64, 0, 2, 100, 10, null));
        assertThat(capped.connections()).isEqualTo(90);
        assertThat(capped.term()).isEqualTo(Budget.Term.MAX_CONNECTIONS);
        assertThat(capped.explanation()).startsWith("budget 90 = maxConnections 100 − 10 reserved = 90 (caps cores 64");
    }

    @Test
    void explicitBudgetReplacesTheFormulaButStaysCapped() {
        assertThat(Budget.of(new DatabaseInput(4, 0, 2, 100, 10, 50)).connections()).isEqualTo(50);
        assertThat(Budget.of(new DatabaseInput(4, 0, 2, 100, 10, 50)).term()).isEqualTo(Budget.Term.EXPLICIT);
        var capped = Budget.of(new DatabaseInput(4, 0, 2, 100, 10, 120));
        assertThat(capped.connections()).isEqualTo(90);
        assertThat(capped.term()).isEqualTo(Budget.Term.MAX_CONNECTIONS);
    }

    @Test
    void identicalInstancesMultiplyTheCappedPerInstanceBudget() {
        // three read replicas of 4 cores behind one reader endpoint, each max_connections 20 with 14 reserved
        var replicas = Budget.of(new DatabaseInput(4, 0, 2, 20, 14, null, 3));
        assertThat(replicas.connections()).isEqualTo(18);
        assertThat(replicas.term()).isEqualTo(Budget.Term.MAX_CONNECTIONS);
        assertThat(replicas.explanation()).startsWith("budget 18 = 3 instances × 6 per instance, where per instance "
                + "budget 6 = maxConnections 20 − 14 reserved = 6");
        assertThat(Budget.of(new DatabaseInput(4, 0, 2, null, 0, null, 1)))
                .isEqualTo(Budget.of(new DatabaseInput(4, 0, 2, null, 0, null)));
        assertThat(
                Budget.of(new DatabaseInput(Limits.CORES, Limits.SPINDLES, Limits.CONNECTIONS_PER_CORE, null, 0, null,
                        Limits.INSTANCES)).connections())
                .isEqualTo(100_100_000_000L);
    }

    @Test
    void instancesAreBounded() {
        assertThatThrownBy(() -> new DatabaseInput(4, 0, 2, null, 0, null, 0))
                .hasMessage("database.instances must be at least 1, got 0");
        assertThatThrownBy(() -> new DatabaseInput(4, 0, 2, null, 0, null, Limits.INSTANCES + 1))
                .hasMessageStartingWith("database.instances must be at most 1000");
    }

    @Test
    void badDatabasesNameTheFieldAndTheFix() {
        assertThatThrownBy(() -> new DatabaseInput(0, 0, 2, null, 0, null))
                .isInstanceOf(InvalidInputException.class).hasMessage("database.cores must be at least 1, got 0");
        assertThatThrownBy(() -> new DatabaseInput(4, 0, 2, 10, 10, null))
                .hasMessageStartingWith(
                        "database.reservedConnections must be below database.maxConnections (10 >= 10)");
    }

    @Test
    void anExplicitBudgetNeedsNoCores() {
        var budget = Budget.of(new DatabaseInput(null, 0, 2, 100, 10, 2));
        assertThat(budget.connections()).isEqualTo(2);
        assertThat(budget.explanation()).isEqualTo("budget 2 = explicit budget 2 (within maxConnections 100 − 10 "
                + "reserved = 90)");
        assertThatThrownBy(() -> new DatabaseInput(null, 0, 2, null, 0, null))
                .hasMessage("database.cores is required unless database.budget is given: the database server's CPU "
                        + "cores, or an explicit budget of connections");
    }
}
