package io.poolbudget.cache;

import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes a Kubernetes model object (fabric8's generated classes) as small as its content, in place, before it enters
 * an informer's store. A deserialized object carries a lot that holds no data: every model object has its own empty
 * {@code additionalProperties} map and empty lists for each absent list field, and every string is a copy of its own
 * even when thousands of objects say "Always" or "apps/v1". Measured on a small Deployment as the API server returns
 * it: 6.7 KB on the heap as deserialized, 1.7 KB compacted (see bench/results/operator-scale.txt). So:
 * <ul>
 *   <li>an empty map or list becomes the shared immutable empty one;</li>
 *   <li>a map or list with content becomes an immutable copy sized to it (insertion order kept);</li>
 *   <li>short strings go through a small lossy table ({@link #dedup}) so that repeated values share one copy: unlike
 *       {@code String.intern} it never grows, so the names of objects long deleted are not kept.</li>
 * </ul>
 * Cached objects are read-only to the operator (writes build partial objects of their own): an immutable collection
 * here only turns an accidental write into a cache object, which would be a bug anyway, into an exception. A map or
 * list holding a null is left as it is. Only fabric8's model classes and our own resources ({@code io.poolbudget.api},
 * with what they inherit from fabric8's {@code CustomResource}) are walked; anything else is left untouched. A cached
 * policy's status repeats the same short strings in every target (kinds, states, reasons), in up to four caches.
 */
public final class Compaction {
    private static final String MODEL = "io.fabric8.kubernetes.api.model.";
    private static final String OURS = "io.poolbudget.api.";
    private static final int SLOTS = 1 << 15;
    private static final int LONGEST = 96;
    private static final String[] TABLE = new String[SLOTS];
    private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

    private Compaction() {}

    /** The same object, its collections and strings compacted. */
    public static <T> T compact(T object) {
        if (object != null && isModel(object.getClass())) {
            walk(object);
        }
        return object;
    }

    /**
     * A string equal to {@code s}, shared with earlier calls when the table still holds one. A table slot keeps the
     * last string that hashed to it; a race between threads only costs a missed share, never a wrong string.
     */
    public static String dedup(String s) {
        if (s.length() > LONGEST) {
            return s;
        }
        int slot = (s.hashCode() ^ (s.hashCode() >>> 16)) & (SLOTS - 1);
        String known = TABLE[slot];
        if (s.equals(known)) {
            return known;
        }
        TABLE[slot] = s;
        return s;
    }

    private static boolean isModel(Class<?> type) {
        return !type.isEnum() && (type.getName().startsWith(MODEL) || type.getName().startsWith(OURS)
                || type == CustomResource.class);
    }

    private static void walk(Object object) {
        for (Field f : fields(object.getClass())) {
            try {
                Object value = f.get(object);
                Object compacted = value == null ? null : value(value);
                if (compacted != value) {
                    f.set(object, compacted);
                }
            } catch (IllegalAccessException e) {
                // a field the runtime does not let us touch keeps its value: smaller is an optimisation, not a need
            }
        }
    }

    private static Object value(Object value) {
        if (value instanceof String s) {
            return dedup(s);
        }
        if (value instanceof List<?> list) {
            return list(list);
        }
        if (value instanceof Map<?, ?> map) {
            return map(map);
        }
        if (isModel(value.getClass())) {
            walk(value);
        }
        return value;
    }

    private static List<?> list(List<?> list) {
        if (list.isEmpty()) {
            return List.of();
        }
        Object[] items = new Object[list.size()];
        for (int i = 0; i < items.length; i++) {
            Object item = list.get(i);
            if (item == null) {
                return list;
            }
            items[i] = value(item);
        }
        return List.of(items);
    }

    private static Map<?, ?> map(Map<?, ?> map) {
        if (map.isEmpty()) {
            return Map.of();
        }
        if (map.size() == 1) {
            var e = map.entrySet().iterator().next();
            return e.getKey() == null || e.getValue() == null ? map : Map.of(value(e.getKey()), value(e.getValue()));
        }
        Map<Object, Object> copy = new LinkedHashMap<>((int) (map.size() / 0.75f) + 1);
        for (var e : map.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                return map;
            }
            copy.put(value(e.getKey()), value(e.getValue()));
        }
        return Collections.unmodifiableMap(copy);
    }

    private static List<Field> fields(Class<?> type) {
        return FIELDS.computeIfAbsent(type, t -> {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = t; c != null && isModel(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    int mod = f.getModifiers();
                    if (!Modifier.isStatic(mod) && !Modifier.isFinal(mod) && f.trySetAccessible()) {
                        fields.add(f);
                    }
                }
            }
            return List.copyOf(fields);
        });
    }
}
