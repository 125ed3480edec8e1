package io.poolbudget.agent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Calls on the application's objects by reflection, each method of a public interface chosen by its name and its exact
 * parameter types. Never by its name and number of arguments alone: an interface may declare two methods of one name
 * and arity (Arc's {@code ArcContainer.select(Class, Annotation...)} and {@code select(TypeLiteral, Annotation...)}), and
 * the order reflection lists them in differs between JVMs, so such a lookup fails on some pods only ("argument type
 * mismatch").
 */
final class Reflective {
    private static final Class<?>[] NONE = {};
    /**
     * The methods found, per class of the objects called on and per interface, name and parameter types: the agent
     * reads the pools ten times a second, and a lookup lists every public method of the interface anew.
     */
    private static final ClassValue<Map<String, Method>> FOUND = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private Reflective() {}

    /** Calls the method of no parameters {@code method} of the public interface {@code type}. */
    static Object call(Object target, String type, String method) throws Exception {
        return call(target, type, method, NONE);
    }

    /**
     * Calls {@code method(params)} of the public interface {@code type} (loaded where {@code target}'s class was) with
     * {@code args}; what the method throws is thrown as it is.
     */
    static Object call(Object target, String type, String method, Class<?>[] params, Object... args)
            throws Exception {
        String key = params.length == 0 ? type + '.' + method : type + '.' + method + Arrays.toString(params);
        Map<String, Method> found = FOUND.get(target.getClass());
        Method m = found.get(key);
        if (m == null) {
            Class<?> api = Class.forName(type, false, target.getClass().getClassLoader());
            m = method(api.getMethods(), type, method, params);
            found.put(key, m);
        }
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    /**
     * Calls the public method of no parameters {@code method} of {@code target}'s own class, which may itself not be
     * public (Agroal's pool); what the method throws is thrown as it is.
     */
    static Object callOwn(Object target, String method) throws Exception {
        Map<String, Method> found = FOUND.get(target.getClass());
        Method m = found.get(method);
        if (m == null) {
            m = target.getClass().getMethod(method);
            m.setAccessible(true);
            found.put(method, m);
        }
        try {
            return m.invoke(target);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    /**
     * Among {@code candidates} (in whatever order reflection listed them), the method {@code name} whose parameters are
     * exactly {@code params}; of several (a bridge beside the method it stands for), the one that is not a bridge.
     */
    static Method method(Method[] candidates, String type, String name, Class<?>... params)
            throws NoSuchMethodException {
        Method found = null;
        for (Method m : candidates) {
            if (m.getName().equals(name) && Arrays.equals(m.getParameterTypes(), params)
                    && (found == null || found.isBridge())) {
                found = m;
            }
        }
        if (found == null) {
            throw new NoSuchMethodException(type + "." + name + Arrays.stream(params).map(Class::getSimpleName)
                    .collect(Collectors.joining(", ", "(", ")")));
        }
        return found;
    }
}
