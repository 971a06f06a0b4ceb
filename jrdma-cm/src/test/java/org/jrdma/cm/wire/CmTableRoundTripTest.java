package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every message through the one table-driven codec with seeded random values: each row's bits on
 * the wire are the component's (read back with the row alone), decode gives the message back and
 * encode the bytes; and for random bytes behind a valid header, every bit a row owns survives
 * decode and encode while every reserved bit comes back zero.
 */
class CmTableRoundTripTest {
    private static final int CASES = 500;
    private static final long TID = 0x0000_0003_0bad_cafeL;

    static final List<CmLayout<? extends CmMessage>> messages = CmTables.MESSAGES;

    @ParameterizedTest(name = "{0}")
    @FieldSource("messages")
    void randomMessagesRoundTripAndEachRowHoldsItsComponent(CmLayout<? extends CmMessage> table) throws CmFormatException {
        long seed = 0x7AB1E + CmTables.MESSAGES.indexOf(table);
        Random r = new Random(seed);
        for (int n = 0; n < CASES; n++) {
            CmMessage m = random(table, r);
            byte[] mad = CmCodec.encode(TID, m);
            String what = "seed %d case %d: %s".formatted(seed, n, m);
            for (CmField f : table.fields()) {
                assertThat(onTheWire(table, mad, f)).as("%s: %s", what, f).isEqualTo(expected(table, (Record) m, f));
            }
            CmMad back = CmCodec.decode(mad, 0, mad.length);
            assertThat(back.message()).as(what).isEqualTo(m).hasSameHashCodeAs(m);
            assertThat(CmCodec.encode(TID, back.message())).as(what).isEqualTo(mad);
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("messages")
    void randomBytesKeepEveryFieldBitAndLoseEveryReservedBit(CmLayout<? extends CmMessage> table) throws CmFormatException {
        long seed = 0x7AB2E + CmTables.MESSAGES.indexOf(table);
        Random r = new Random(seed);
        byte[] owned = owned(table);
        int attribute = Records.zero(table.type()).attribute().id();
        for (int n = 0; n < CASES; n++) {
            byte[] mad = CmCodec.encode(TID, Records.zero(table.type()));
            byte[] body = new byte[Mad.DATA_SIZE];
            r.nextBytes(body);
            System.arraycopy(body, 0, mad, Mad.HEADER_SIZE, body.length);
            CmMad cm = CmCodec.decode(mad, 0, mad.length);
            assertThat(cm.header()).isEqualTo(MadHeader.cm(TID, attribute));
            byte[] again = CmCodec.encode(TID, cm.message());
            for (int i = 0; i < Mad.DATA_SIZE; i++) {
                assertThat(again[Mad.HEADER_SIZE + i]).as("seed %d case %d, CM byte %d", seed, n, i)
                        .isEqualTo((byte) (body[i] & owned[i]));
            }
        }
    }

    /** Values drawn per component, at the width its rows give it; byte arrays of any length up to capacity. */
    private static CmMessage random(CmLayout<? extends CmMessage> table, Random r) {
        Map<String, Integer> widths = new HashMap<>();
        for (CmField f : table.fields()) {
            widths.merge(f.name(), f.bitWidth(), Integer::sum);
        }
        Map<String, Object> values = new HashMap<>();
        widths.forEach((name, width) -> {
            Class<?> t = Records.type(table.type(), name);
            values.put(name, t == boolean.class ? (Object) r.nextBoolean()
                    : t == long.class ? (Object) r.nextLong()
                    : t == int.class ? (Object) (r.nextInt() >>> 32 - width)
                    : randomBytes(r, name.endsWith("Gid") ? width / 8 : r.nextInt(width / 8 + 1)));
        });
        return Records.of(table.type(), values);
    }

    private static byte[] randomBytes(Random r, int length) {
        byte[] b = new byte[length];
        r.nextBytes(b);
        return b;
    }

    /** What a row reads from the MAD by itself, as a number or, for byte rows, the bytes. */
    private static Object onTheWire(CmLayout<?> table, byte[] mad, CmField f) {
        if (Records.type(table.type(), f.name()) == byte[].class) {
            int at = Mad.HEADER_SIZE + f.byteOffset();
            return Arrays.copyOfRange(mad, at, at + f.bitWidth() / 8);
        }
        return f.get(mad, Mad.HEADER_SIZE);
    }

    /** The component's value, or for one piece of a split component the bits that piece carries. */
    private static Object expected(CmLayout<?> table, Record m, CmField f) {
        Object v = Records.at(m, f.name());
        if (v instanceof byte[]) {
            return v;
        }
        long value = switch (v) {
            case Integer i -> Integer.toUnsignedLong(i);
            case Long l -> l;
            case Boolean b -> b ? 1 : 0;
            default -> throw new AssertionError(v);
        };
        int below = 0;
        boolean after = false;
        for (CmField g : table.fields()) {
            if (g.equals(f)) {
                after = true;
            } else if (after && g.name().equals(f.name())) {
                below += g.bitWidth();
            }
        }
        return value >>> below & f.mask();
    }

    /** Per CM data byte, the bits some row owns. */
    private static byte[] owned(CmLayout<?> table) {
        byte[] mask = new byte[Mad.DATA_SIZE];
        for (CmField f : table.fields()) {
            for (int bit = f.endBit() - f.bitWidth(); bit < f.endBit(); bit++) {
                mask[bit / 8] |= (byte) (0x80 >>> bit % 8);
            }
        }
        return mask;
    }
}
