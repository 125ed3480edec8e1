package io.poolbudget.agent;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Quarkus' Agroal datasources, from the application's CDI container ({@code Arc.container()}, every bean of type
 * {@code AgroalDataSource} with any qualifier), once the application has started: the agent never creates a bean
 * before Quarkus would. Found by reflection in the class loader Quarkus runs the application in (its runner's, the
 * context loader of its threads), so a JVM without Quarkus only ever answers "none".
 */
final class QuarkusDataSources implements Supplier<List<AgroalPools.Named>> {
    private static final String ARC = "io.quarkus.arc.Arc";
    /** {@code ArcContainer.select(Class, Annotation...)}, not its {@code select(TypeLiteral, Annotation...)}. */
    static final Class<?>[] SELECT = {Class.class, Annotation[].class};
    private volatile ClassLoader loader;

    @Override
    public List<AgroalPools.Named> get() {
        ClassLoader app = loader != null ? loader : find();
        if (app == null) {
            return List.of();
        }
        try {
            Object application = Class.forName("io.quarkus.runtime.Application", true, app)
                    .getMethod("currentApplication").invoke(null);
            if (application == null || !(Boolean) application.getClass().getMethod("isStarted").invoke(application)) {
                return List.of();
            }
            Object container = Class.forName(ARC, true, app).getMethod("container").invoke(null);
            if (container == null) {
                return List.of();
            }
            Class<?> type = Class.forName("io.agroal.api.AgroalDataSource", false, app);
            Annotation any = (Annotation) Class.forName("jakarta.enterprise.inject.Any$Literal", true, app)
                    .getField("INSTANCE").get(null);
            Object instance = Reflective.call(container, "io.quarkus.arc.ArcContainer", "select", SELECT, type,
                    new Annotation[]{any});
            List<AgroalPools.Named> found = new ArrayList<>();
            for (Object handle : (Iterable<?>) Reflective.call(instance, "jakarta.enterprise.inject.Instance",
                    "handles")) {
                AgroalPools.Named ds = named(handle, app);
                if (ds != null) {
                    found.add(ds);
                }
            }
            return found;
        } catch (ClassNotFoundException e) {
            return List.of(); // Quarkus without Agroal
        } catch (Exception e) {
            throw new IllegalStateException("cannot read Quarkus' datasources: " + e, e);
        }
    }

    /** The datasource behind one bean, null for one Quarkus made inactive. */
    private static AgroalPools.Named named(Object handle, ClassLoader app) throws Exception {
        String name = "<default>";
        Object bean = Reflective.call(handle, "jakarta.enterprise.inject.Instance$Handle", "getBean");
        for (Object q : (Iterable<?>) Reflective.call(bean, "jakarta.enterprise.inject.spi.BeanAttributes",
                "getQualifiers")) {
            Annotation a = (Annotation) q;
            if (a.annotationType().getName().equals("io.quarkus.agroal.DataSource")) {
                name = (String) a.annotationType().getMethod("value").invoke(a);
            }
        }
        try {
            Object ds = Reflective.call(handle, "jakarta.enterprise.inject.Instance$Handle", "get");
            Object target = Class.forName("io.quarkus.arc.ClientProxy", true, app).getMethod("unwrap", Object.class)
                    .invoke(null, ds);
            return new AgroalPools.Named(name, target, null);
        } catch (Exception e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause.getClass().getSimpleName().startsWith("Inactive")) {
                return null; // a datasource the configuration turned off: no pool, nothing to size
            }
            return new AgroalPools.Named(name, null, "datasource " + name + " cannot be had: " + cause);
        }
    }

    /** The first class loader, among those of the live threads, that has Quarkus' CDI container. */
    private ClassLoader find() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n = root.enumerate(threads, true);
        for (int i = 0; i < n; i++) {
            ClassLoader cl = threads[i].getContextClassLoader();
            if (cl != null && cl.getResource(ARC.replace('.', '/') + ".class") != null) {
                loader = cl;
                return cl;
            }
        }
        return null;
    }
}
