package io.poolbudget.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent picks an overload by its parameter types, whatever order reflection lists a class's methods in: Keycloak's
 * {@code ArcContainer} has {@code select(Class, Annotation...)} and {@code select(TypeLiteral, Annotation...)}, listed
 * one way in one JVM and the other way in another (issue 53: "argument type mismatch" on 1 pod of 6).
 */
class ReflectiveTest {
    /** Stands for {@code jakarta.enterprise.util.TypeLiteral}. */
    public abstract static class TypeLiteral<T> {}

    /** Arc's two overloads, declared with {@code select(Class, ...)} first. */
    public interface ClassFirst {
        String select(Class<?> type, Annotation... qualifiers);

        String select(TypeLiteral<?> type, Annotation... qualifiers);
    }

    /** The same two, declared the other way round. */
    public interface LiteralFirst {
        String select(TypeLiteral<?> type, Annotation... qualifiers);

        String select(Class<?> type, Annotation... qualifiers);
    }

    public static final class Containers implements ClassFirst, LiteralFirst {
        @Override
        public String select(Class<?> type, Annotation... qualifiers) {
            return "by class " + type.getSimpleName() + " with " + qualifiers.length + " qualifier(s)";
        }

        @Override
        public String select(TypeLiteral<?> type, Annotation... qualifiers) {
            return "by type literal";
        }
    }

    @Test
    void theOverloadIsTheOneOfTheParameterTypesInEitherOrderReflectionListsThem() throws Exception {
        for (Class<?> api : List.of(ClassFirst.class, LiteralFirst.class)) {
            List<Method> listed = new ArrayList<>(List.of(api.getMethods()));
            for (int turn = 0; turn < 2; turn++) {
                Method m = Reflective.method(listed.toArray(Method[]::new), api.getName(), "select",
                        QuarkusDataSources.SELECT);
                assertThat(m.getParameterTypes()).as(api.getSimpleName() + " listed " + listed)
                        .containsExactly(Class.class, Annotation[].class);
                Collections.reverse(listed);
            }
        }
    }

    @Test
    void aCallRunsTheOverloadAskedForOnEitherDeclaration() throws Exception {
        for (Class<?> api : List.of(ClassFirst.class, LiteralFirst.class)) {
            assertThat(Reflective.call(new Containers(), api.getName(), "select", QuarkusDataSources.SELECT,
                    String.class, new Annotation[]{anAnnotation()})).isEqualTo("by class String with 1 qualifier(s)");
        }
    }

    @Test
    void aMethodOfOtherParameterTypesIsNamedWhenMissing() {
        assertThatThrownBy(() -> Reflective.call(new Containers(), ClassFirst.class.getName(), "select",
                new Class<?>[]{String.class, Annotation[].class}, "x", new Annotation[0]))
                .isInstanceOf(NoSuchMethodException.class)
                .hasMessageEndingWith("ClassFirst.select(String, Annotation[])");
    }

    private static Annotation anAnnotation() {
        return Deprecated.class.getAnnotation(java.lang.annotation.Documented.class);
    }
}
