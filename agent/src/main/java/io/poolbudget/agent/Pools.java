package io.poolbudget.agent;

import java.util.List;
import javax.management.JMException;

/** The pools of one kind the agent can resize. */
interface Pools {
    List<Pool> all();

    /** One pool: its limits, what it holds, and the resize in the order that never holds more than the new size. */
    interface Pool {
        String name();

        int maximum() throws JMException;

        int minimumIdle() throws JMException;

        int total() throws JMException;

        int active() throws JMException;

        void resize(int size) throws JMException;
    }
}
