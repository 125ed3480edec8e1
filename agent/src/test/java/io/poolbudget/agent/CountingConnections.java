package io.poolbudget.agent;

import java.lang.reflect.Proxy;
import java.sql.Connection;

/** The tests' "database": connections that do nothing but say once, when closed, that they are. */
final class CountingConnections {
    private CountingConnections() {}

    static Connection open(Runnable onClose) {
        boolean[] closed = {false};
        return (Connection) Proxy.newProxyInstance(CountingConnections.class.getClassLoader(),
                new Class<?>[]{Connection.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close" :
                            if (!closed[0]) {
                                closed[0] = true;
                                onClose.run();
                            }
                            return null;
                        case "isClosed" :
                            return closed[0];
                        case "isValid" :
                            return !closed[0];
                        case "getAutoCommit" :
                            return true;
                        case "hashCode" :
                            return System.identityHashCode(proxy);
                        case "equals" :
                            return proxy == args[0];
                        case "toString" :
                            return "counting-connection";
                        default :
                            Class<?> r = method.getReturnType();
                            if (r == boolean.class) {
                                return Boolean.FALSE;
                            }
                            if (r == int.class) {
                                return Integer.valueOf(0); // not a ternary: it would widen 0 to a Long
                            }
                            return r == long.class ? (Object) Long.valueOf(0) : null;
                    }
                });
    }
}
