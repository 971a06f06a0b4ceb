package org.jrdma.cm.wire;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds message records by component name, so one table per message (its §7.6 layout) drives the
 * tests. Paths into a REQ's paths are dotted: {@code "primaryPath.flowLabel"}.
 */
final class Records {
    private Records() {
    }

    /** Every field with a value zero / false / empty, and PathInfo.NONE for the paths. */
    static CmMessage zero(Class<? extends CmMessage> type) {
        return of(type, Map.of());
    }

    /**
     * A message with the given values by path; the others zero / false / empty, and a path none of
     * whose fields is given is PathInfo.NONE.
     */
    static CmMessage of(Class<? extends CmMessage> type, Map<String, Object> values) {
        return (CmMessage) build(type, values);
    }

    private static Record build(Class<?> type, Map<String, Object> values) {
        RecordComponent[] cs = type.getRecordComponents();
        Object[] args = new Object[cs.length];
        for (int i = 0; i < cs.length; i++) {
            String name = cs[i].getName();
            Class<?> t = cs[i].getType();
            if (t == PathInfo.class) {
                Map<String, Object> sub = new HashMap<>();
                values.forEach((k, v) -> {
                    if (k.startsWith(name + ".")) {
                        sub.put(k.substring(name.length() + 1), v);
                    }
                });
                args[i] = sub.isEmpty() ? PathInfo.NONE : build(PathInfo.class, sub);
            } else if (values.containsKey(name)) {
                args[i] = values.get(name);
            } else {
                args[i] = t == int.class ? (Object) 0 : t == long.class ? (Object) 0L
                        : t == boolean.class ? (Object) false : new byte[0];
            }
        }
        return construct(type, args);
    }

    /** A copy of {@code m} with one (possibly dotted) component replaced. */
    static CmMessage with(CmMessage m, String path, Object value) {
        return (CmMessage) with((Record) m, path, value);
    }

    /** A copy of any record, a MAD header too, with one (possibly dotted) component replaced. */
    static Record replaced(Record r, String path, Object value) {
        return with(r, path, value);
    }

    /** Any record with every field zero / false / empty (a MAD header too). */
    static Record zeroRecord(Class<? extends Record> type) {
        return build(type, Map.of());
    }

    /** The declared type of a (possibly dotted) component. */
    static Class<?> type(Class<?> record, String path) {
        Class<?> t = record;
        for (String part : path.split("\\.")) {
            Class<?> outer = t;
            t = Arrays.stream(outer.getRecordComponents()).filter(c -> c.getName().equals(part)).findFirst()
                    .map(RecordComponent::getType)
                    .orElseThrow(() -> new IllegalArgumentException(outer.getSimpleName() + " has no " + part));
        }
        return t;
    }

    /** The value of a (possibly dotted) component. */
    static Object at(Record r, String path) {
        Object v = r;
        for (String part : path.split("\\.")) {
            Record outer = (Record) v;
            v = get(outer, Arrays.stream(outer.getClass().getRecordComponents()).filter(c -> c.getName().equals(part))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException(outer.getClass().getSimpleName() + " has no " + part)));
        }
        return v;
    }

    private static Record with(Record r, String path, Object value) {
        int dot = path.indexOf('.');
        String head = dot < 0 ? path : path.substring(0, dot);
        RecordComponent[] cs = r.getClass().getRecordComponents();
        Object[] args = new Object[cs.length];
        boolean found = false;
        for (int i = 0; i < cs.length; i++) {
            args[i] = get(r, cs[i]);
            if (cs[i].getName().equals(head)) {
                args[i] = dot < 0 ? value : with((Record) args[i], path.substring(dot + 1), value);
                found = true;
            }
        }
        if (!found) {
            throw new IllegalArgumentException(r.getClass().getSimpleName() + " has no " + head);
        }
        return construct(r.getClass(), args);
    }

    /** The component paths, a PathInfo's expanded, in declaration order. */
    static List<String> paths(Class<?> type) {
        List<String> out = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            if (c.getType() == PathInfo.class) {
                paths(PathInfo.class).forEach(p -> out.add(c.getName() + "." + p));
            } else {
                out.add(c.getName());
            }
        }
        return out;
    }

    static Object get(Record r, RecordComponent c) {
        try {
            return c.getAccessor().invoke(r);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** The canonical constructor; its IllegalArgumentException is rethrown as is. */
    static Record construct(Class<?> type, Object... args) {
        Class<?>[] types = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            Constructor<?> k = type.getDeclaredConstructor(types);
            return (Record) k.newInstance(args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new AssertionError(e);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
