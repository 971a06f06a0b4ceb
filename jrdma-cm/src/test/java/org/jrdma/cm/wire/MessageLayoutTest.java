package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jrdma.cm.wire.Layouts.Layout;
import org.jrdma.cm.wire.Layouts.Loc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every field of every message against the hand-written §7.6 tables of {@link Layouts}: each value
 * lands in exactly its bits, byte by byte over the whole MAD, and comes back on decode.
 */
class MessageLayoutTest {
    private static final int CASES = 1000;
    private static final long TID = 0x0000_0002_556b_e982L;

    static final List<Layout> layouts = Layouts.ALL;

    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void theTableNamesEveryComponentOnce(Layout l) {
        assertThat(l.locs()).extracting(Loc::field).containsExactlyElementsOf(Records.paths(l.type()));
    }

    /** No two fields share a bit, and with every field all ones the reserved bits are still zero. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void fieldsAreDisjointAndReservedBitsStayZero(Layout l) {
        byte[] union = new byte[Mad.SIZE];
        CmMessage m = Records.zero(l.type());
        for (Loc loc : l.locs()) {
            for (int i = 0; i < loc.mask().length; i++) {
                assertThat(union[loc.at() + i] & loc.mask()[i]).as("%s overlaps at %d", loc, loc.at() + i).isZero();
                union[loc.at() + i] |= loc.mask()[i];
            }
            m = Records.with(m, loc.field(), ones(l, loc));
        }
        byte[] mad = CmCodec.encode(TID, m);
        assertThat(Arrays.copyOfRange(mad, Mad.HEADER_SIZE, Mad.SIZE))
                .isEqualTo(Arrays.copyOfRange(union, Mad.HEADER_SIZE, Mad.SIZE));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void aZeroMessageIsAllZeroAfterTheHeader(Layout l) {
        byte[] mad = CmCodec.encode(TID, Records.zero(l.type()));
        assertThat(Arrays.copyOfRange(mad, 0, Mad.HEADER_SIZE)).isEqualTo(header(l));
        assertThat(Arrays.copyOfRange(mad, Mad.HEADER_SIZE, Mad.SIZE)).containsOnly(0);
    }

    /** All ones, a byte-order pattern, the lowest and the highest bit: each alone, over a zero message. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void eachFieldLandsUnderItsMaskAndNowhereElse(Layout l) throws CmFormatException {
        for (Loc loc : l.locs()) {
            for (Object value : distinctive(l, loc)) {
                CmMessage m = Records.with(Records.zero(l.type()), loc.field(), value);
                byte[] mad = CmCodec.encode(TID, m);
                assertThat(mad).as("%s = %s", loc, show(value)).isEqualTo(expected(l, Map.of(loc, value)));
                assertThat(CmCodec.decode(mad, 0, mad.length).message()).as("%s = %s", loc, show(value)).isEqualTo(m);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void randomMessagesEncodeAsTheTableSaysAndRoundTrip(Layout l) throws CmFormatException {
        long seed = 1000 + Layouts.ALL.indexOf(l);
        Random r = new Random(seed);
        for (int n = 0; n < CASES; n++) {
            Map<Loc, Object> values = new LinkedHashMap<>();
            Map<String, Object> byField = new HashMap<>();
            for (Loc loc : l.locs()) {
                Object v = random(r, l, loc);
                values.put(loc, v);
                byField.put(loc.field(), v);
            }
            CmMessage m = Records.of(l.type(), byField);
            byte[] mad = CmCodec.encode(TID, m);
            assertThat(mad).as("seed %d case %d: %s", seed, n, m).isEqualTo(expected(l, values));
            CmMad back = CmCodec.decode(mad, 0, mad.length);
            assertThat(back.message()).as("seed %d case %d", seed, n).isEqualTo(m).hasSameHashCodeAs(m);
            assertThat(back.header()).isEqualTo(MadHeader.cm(TID, m.attribute().id()));
        }
    }

    /** One past the width, and -1, are refused naming the field; so is a byte array too long. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("layouts")
    void valuesWiderThanTheFieldAreRefusedNamingIt(Layout l) {
        CmMessage zero = Records.zero(l.type());
        for (Loc loc : l.locs()) {
            Class<?> t = type(l, loc);
            String name = loc.field().substring(loc.field().lastIndexOf('.') + 1);
            if (t == int.class && loc.width() < 32) {
                for (int bad : new int[] {1 << loc.width(), -1}) {
                    assertThatThrownBy(() -> Records.with(zero, loc.field(), bad)).as("%s = %d", loc, bad)
                            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(name);
                }
            } else if (t == byte[].class) {
                assertThatThrownBy(() -> Records.with(zero, loc.field(), new byte[loc.mask().length + 1])).as("%s", loc)
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(String.valueOf(loc.mask().length + 1))
                        .hasMessageContaining(String.valueOf(loc.mask().length));
            }
        }
    }

    @Test
    void theHeaderFieldsSitAtTheirSection75Offsets() throws CmFormatException {
        MadHeader h = new MadHeader(0x01, 0x07, 0x02, 0x03, 0xabcd, 0x1234, 0x0102030405060708L, 0x0014, 0xcafebabe);
        ByteBuffer out = ByteBuffer.allocate(Mad.SIZE + 8).order(ByteOrder.LITTLE_ENDIAN).position(8);
        CmCodec.encode(h, new Rtu(1, 2, null), out);
        assertThat(out.position()).isEqualTo(Mad.SIZE + 8);
        assertThat(Arrays.copyOfRange(out.array(), 8, 8 + Mad.HEADER_SIZE))
                .isEqualTo(HexFormat.of().parseHex("01070203abcd1234010203040506070800140000cafebabe"));
        assertThat(CmCodec.decode(out.array(), 8, Mad.SIZE).header()).isEqualTo(h);
    }

    private static byte[] header(Layout l) {
        int id = Records.zero(l.type()).attribute().id();
        return HexFormat.of().parseHex("0107020300000000" + "00000002556be982" + "%04x000000000000".formatted(id));
    }

    /** The encoding of a zero message with these fields set, built from the table alone. */
    private static byte[] expected(Layout l, Map<Loc, Object> values) {
        byte[] mad = new byte[Mad.SIZE];
        System.arraycopy(header(l), 0, mad, 0, Mad.HEADER_SIZE);
        values.forEach((loc, v) -> {
            byte[] d = loc.deposit(v);
            for (int i = 0; i < d.length; i++) {
                mad[loc.at() + i] |= d[i];
            }
        });
        return mad;
    }

    private static List<Object> distinctive(Layout l, Loc loc) {
        int w = loc.width();
        Class<?> t = type(l, loc);
        if (t == boolean.class) {
            return List.of(true);
        }
        if (t == long.class) {
            return List.of(-1L, 0x0123456789abcdefL, 1L, Long.MIN_VALUE);
        }
        if (t == byte[].class) {
            byte[] pattern = new byte[loc.mask().length];
            for (int i = 0; i < pattern.length; i++) {
                pattern[i] = (byte) (i + 1);
            }
            return List.of(ones(l, loc), pattern);
        }
        int mask = w == 32 ? -1 : (1 << w) - 1;
        return List.of(mask, 0x12345678 & mask, 1, 1 << (w - 1));
    }

    private static Object ones(Layout l, Loc loc) {
        Class<?> t = type(l, loc);
        if (t == byte[].class) {
            byte[] b = new byte[loc.mask().length];
            Arrays.fill(b, (byte) 0xFF);
            return b;
        }
        return t == boolean.class ? (Object) true : t == long.class ? (Object) (-1L)
                : (Object) (loc.width() == 32 ? -1 : (1 << loc.width()) - 1);
    }

    /** A GID is always 16 bytes; other arrays get a random length and are zero-filled. */
    private static Object random(Random r, Layout l, Loc loc) {
        Class<?> t = type(l, loc);
        if (t == byte[].class) {
            byte[] b = new byte[loc.field().endsWith("Gid") ? 16 : r.nextInt(loc.mask().length + 1)];
            r.nextBytes(b);
            return b;
        }
        return t == boolean.class ? (Object) r.nextBoolean() : t == long.class ? (Object) r.nextLong()
                : (Object) (r.nextInt() >>> (32 - loc.width()));
    }

    private static Class<?> type(Layout l, Loc loc) {
        Class<?> t = l.type();
        for (String part : loc.field().split("\\.")) {
            t = Arrays.stream(t.getRecordComponents()).filter(c -> c.getName().equals(part)).findFirst()
                    .map(RecordComponent::getType).orElseThrow();
        }
        return t;
    }

    private static String show(Object v) {
        return v instanceof byte[] b ? HexFormat.of().formatHex(b) : String.valueOf(v);
    }
}
