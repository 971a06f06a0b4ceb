package org.jrdma.cm.wire;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * A field table bound to the record it describes: the one codec of every CM message (and of the
 * MAD header and a REQ's paths). Decoding reads each component's rows and calls the canonical
 * constructor; encoding reads the accessors and sets each row's bits, leaving every bit no row
 * names (IBA's reserved bits) as the caller's buffer has it — zero in a fresh MAD.
 *
 * <p>A row's Java type is its component's: {@code int} (at most 32 bits over all its pieces),
 * {@code long} (64-bit IDs), {@code boolean} (one bit), {@code byte[]} (whole bytes, the record's
 * fixed capacity) or a nested record with its own rows under the component's name. The binding is
 * checked when the table is built, so a table that names a missing component or gives a byte array
 * odd bits fails as the class loads, not on a peer's message.
 */
final class CmLayout<R extends Record> {
    /** The handles adapted once to erased shapes, so each use is a plain invokeExact. */
    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);
    private static final MethodType CONSTRUCTOR = MethodType.methodType(Object.class, Object[].class);

    private final Class<R> type;
    private final List<CmField> fields;
    private final Slot[] slots;
    private final MethodHandle constructor;

    /** A component and where its value lives: rows of its own, or a nested record's table. */
    private record Slot(RecordComponent component, MethodHandle accessor, CmField[] pieces, CmLayout<?> nested) {
    }

    private CmLayout(Class<R> type, List<CmField> fields) {
        this.type = type;
        this.fields = List.copyOf(fields);
        RecordComponent[] cs = type.getRecordComponents();
        this.slots = new Slot[cs.length];
        List<CmField> unclaimed = new ArrayList<>(fields);
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            for (int i = 0; i < cs.length; i++) {
                MethodHandle accessor = lookup.unreflect(cs[i].getAccessor()).asType(GETTER);
                slots[i] = bind(cs[i], accessor, unclaimed);
            }
            Class<?>[] params = Arrays.stream(cs).map(RecordComponent::getType).toArray(Class<?>[]::new);
            this.constructor = lookup.unreflectConstructor(type.getDeclaredConstructor(params))
                    .asSpreader(Object[].class, cs.length).asType(CONSTRUCTOR);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(type.getSimpleName() + " is not a public record", e);
        }
        if (!unclaimed.isEmpty()) {
            throw new IllegalStateException(type.getSimpleName() + " has no component for " + unclaimed);
        }
    }

    /** The table of {@code type}, rows in the order IBA lists them. */
    static <R extends Record> CmLayout<R> of(Class<R> type, List<CmField> fields) {
        return new CmLayout<>(type, fields);
    }

    Class<R> type() {
        return type;
    }

    /** Every row, nested tables' rows under their dotted names. */
    List<CmField> fields() {
        return fields;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + " table";
    }

    /** The record whose table starts at {@code base} in {@code b}. Every bit pattern decodes. */
    R read(byte[] b, int base) {
        Object[] args = new Object[slots.length];
        for (int i = 0; i < slots.length; i++) {
            args[i] = read(slots[i], b, base);
        }
        try {
            return type.cast((Object) constructor.invokeExact(args));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("constructing " + type.getSimpleName(), t);
        }
    }

    /** Sets the bits of every row from {@code r}'s components into the table at {@code base}. */
    void write(Object r, byte[] b, int base) {
        R record = type.cast(r);
        for (Slot s : slots) {
            Object value;
            try {
                value = (Object) s.accessor().invokeExact((Object) record);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("reading " + s.component(), t);
            }
            write(s, value, b, base);
        }
    }

    private static Object read(Slot s, byte[] b, int base) {
        if (s.nested() != null) {
            return s.nested().read(b, base);
        }
        CmField first = s.pieces()[0];
        Class<?> t = s.component().getType();
        if (t == byte[].class) {
            int at = base + first.byteOffset();
            return Arrays.copyOfRange(b, at, at + first.bitWidth() / 8);
        }
        long v = 0;
        for (CmField piece : s.pieces()) {
            v = v << piece.bitWidth() | piece.get(b, base);
        }
        return t == int.class ? (Object) (int) v : t == long.class ? (Object) v : (Object) (v != 0);
    }

    private static void write(Slot s, Object value, byte[] b, int base) {
        if (s.nested() != null) {
            s.nested().write(value, b, base);
            return;
        }
        CmField first = s.pieces()[0];
        switch (value) {
            case byte[] bytes -> {
                if (bytes.length * 8 != first.bitWidth()) {
                    throw new IllegalStateException(first.name() + " is " + bytes.length + " bytes; the table has "
                            + first.bitWidth() / 8);
                }
                System.arraycopy(bytes, 0, b, base + first.byteOffset(), bytes.length);
            }
            case Integer i -> putPieces(s.pieces(), Integer.toUnsignedLong(i), b, base);
            case Long l -> putPieces(s.pieces(), l, b, base);
            case Boolean f -> first.put(b, base, f ? 1 : 0);
            default -> throw new IllegalStateException(first.name() + " is a " + value.getClass());
        }
    }

    /** Pieces most significant first: the last takes the low bits. */
    private static void putPieces(CmField[] pieces, long v, byte[] b, int base) {
        int below = Arrays.stream(pieces).mapToInt(CmField::bitWidth).sum();
        if (below < 64 && v >>> below != 0) {
            throw new IllegalStateException(pieces[0].name() + " = 0x" + Long.toHexString(v) + " does not fit in "
                    + below + " bits");
        }
        for (CmField p : pieces) {
            below -= p.bitWidth();
            p.put(b, base, v >>> below & p.mask());
        }
    }

    /** Claims {@code c}'s rows from {@code unclaimed} and checks they fit its type. */
    private static Slot bind(RecordComponent c, MethodHandle accessor, List<CmField> unclaimed) {
        String name = c.getName();
        Class<?> t = c.getType();
        if (t.isRecord()) {
            List<CmField> stripped = claim(unclaimed, f -> f.name().startsWith(name + ".")).stream()
                    .map(f -> new CmField(f.name().substring(name.length() + 1), f.byteOffset(), f.bitOffset(), f.bitWidth()))
                    .toList();
            // The nested rows keep their offsets in the outer table: the nested record is read at the same base.
            return new Slot(c, accessor, null, new CmLayout<>(t.asSubclass(Record.class), stripped));
        }
        List<CmField> pieces = claim(unclaimed, f -> f.name().equals(name));
        String where = c.getDeclaringRecord().getSimpleName() + "." + name;
        if (pieces.isEmpty()) {
            throw new IllegalStateException(where + " has no row in its table");
        }
        int width = pieces.stream().mapToInt(CmField::bitWidth).sum();
        boolean fits = t == int.class ? width <= 32
                : t == long.class ? width <= 64
                : t == boolean.class ? width == 1
                : t == byte[].class && pieces.size() == 1 && pieces.getFirst().byteAligned();
        if (!fits) {
            throw new IllegalStateException(where + " (" + t.getSimpleName() + ") cannot hold " + pieces);
        }
        return new Slot(c, accessor, pieces.toArray(CmField[]::new), null);
    }

    /** Removes and returns, in table order, the rows that {@code mine} selects. */
    private static List<CmField> claim(List<CmField> unclaimed, Predicate<CmField> mine) {
        List<CmField> claimed = unclaimed.stream().filter(mine).toList();
        unclaimed.removeAll(claimed);
        return claimed;
    }
}
