package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.testkit.fuzz.Fuzz;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing perftest's exchanges (issue 6 item 7): the key message in both variants (108 bytes
 * with a GID, 59 without) and the 16-byte version. Properties: nothing but
 * {@link MalformedMessageException} escapes decode or the prefix check; inputs are arrays of
 * exactly their own length, so an over-read would be an untyped exception; what decodes
 * re-encodes to the same message; the prefix check never refuses the start of a message that
 * decodes, and never lets a whole message through that decode refuses.
 */
class PerfWireFuzzTest {
    @Test
    void keyMessagesOfEveryLengthDecodeOrFailTyped() {
        Random r = new Random(Fuzz.seed(0x4E41));
        for (boolean withGid : new boolean[] {true, false}) {
            int size = withGid ? PerftestKeyCodec.GID_SIZE : PerftestKeyCodec.NO_GID_SIZE;
            for (int len = 0; len <= 2 * size; len++) {
                for (int k = 0; k < 10; k++) {
                    byte[] b = Arrays.copyOf(codec(withGid).encodeKey(randomKeys(r, withGid)), len);
                    if (k % 2 == 1) {
                        r.nextBytes(b);
                    }
                    checkKeys(b, withGid);
                }
            }
        }
    }

    @Test
    void mutatedKeyMessagesDecodeOrFailTyped() {
        Fuzz.run("perftest key message mutated", 15_000, 0x4E42, c -> {
            Random r = c.random();
            boolean withGid = r.nextBoolean();
            checkKeys(c.input(Fuzz.mutate(codec(withGid).encodeKey(randomKeys(r, withGid)), r)), withGid);
        });
    }

    @Test
    void keyMessagesRoundTrip() {
        Fuzz.run("perftest key message round trip", 10_000, 0x4E43, c -> {
            Random r = c.random();
            boolean withGid = r.nextBoolean();
            KeyMessage m = randomKeys(r, withGid);
            byte[] wire = c.input(codec(withGid).encodeKey(m));
            assertThat(codec(withGid).decodeKey(wire)).isEqualTo(m);
            for (int n = 0; n <= wire.length; n++) {
                codec(withGid).checkPrefix(Arrays.copyOf(wire, n), n);
            }
        });
    }

    @Test
    void versionsDecodeOrFailTyped() {
        byte[] printable = "0123456789.. 6.06-rc1abc\u007f".getBytes(StandardCharsets.ISO_8859_1);
        Fuzz.run("perftest version", 30_000, 0x4E44, c -> {
            Random r = c.random();
            byte[] b = switch (r.nextInt(3)) {
                case 0 -> Fuzz.mutate(PeerVersion.encodeOurs(), r);
                case 1 -> Fuzz.randomBytes(r, r.nextInt(2 * PeerVersion.BYTES));
                default -> {
                    byte[] v = new byte[PeerVersion.BYTES];
                    for (int i = 0, n = r.nextInt(PeerVersion.BYTES + 1); i < n; i++) {
                        v[i] = printable[r.nextInt(printable.length)];
                    }
                    yield v;
                }
            };
            c.input(b);
            try {
                PeerVersion v = PeerVersion.decode(b);
                assertThat(b).hasSize(PeerVersion.BYTES);
                assertThat(v.text()).doesNotContain("\0").hasSizeLessThanOrEqualTo(PeerVersion.BYTES);
                assertThat(v.number()).isNotNaN().isNotNegative();
                try {
                    v.requireCompatible();
                    assertThat(v.number()).isGreaterThanOrEqualTo(PeerVersion.OLDEST);
                } catch (MalformedMessageException tooOld) {
                    assertThat(v.number()).isLessThan(PeerVersion.OLDEST);
                }
            } catch (MalformedMessageException typed) {
                assertThat(typed.field()).isEqualTo("version");
            }
        });
        assertThat(PeerVersion.decode(PeerVersion.encodeOurs()).text()).isEqualTo(PeerVersion.OURS);
    }

    private static void checkKeys(byte[] b, boolean withGid) {
        KeyMessage decoded = null;
        try {
            decoded = codec(withGid).decodeKey(b);
        } catch (MalformedMessageException typed) {
            assertThat(typed.field()).isNotBlank();
            assertThat(typed.getMessage()).hasSizeLessThan(500);
        }
        if (decoded != null) {
            assertThat(codec(withGid).decodeKey(codec(withGid).encodeKey(decoded))).isEqualTo(decoded);
        }
        boolean prefixRefused = false;
        for (int n = 0; n <= b.length && !prefixRefused; n++) {
            try {
                codec(withGid).checkPrefix(Arrays.copyOf(b, n), n);
            } catch (MalformedMessageException refused) {
                prefixRefused = true;
                assertThat(decoded).as("prefix %d refused, so the message must not decode", n).isNull();
            }
        }
        int size = withGid ? PerftestKeyCodec.GID_SIZE : PerftestKeyCodec.NO_GID_SIZE;
        if (!prefixRefused && b.length == size) {
            assertThat(decoded).as("every byte passed the prefix check, so the message decodes").isNotNull();
        }
    }

    private static KeyMessage randomKeys(Random r, boolean withGid) {
        byte[] gid = new byte[16];
        r.nextBytes(gid);
        return new KeyMessage(r.nextInt(1 << 16), r.nextInt(1 << 16), r.nextInt(1 << 24), r.nextInt(1 << 24), r.nextInt(),
                r.nextLong(), withGid ? Gid.of(gid) : Gid.ZERO, r.nextInt());
    }

    private static PerftestKeyCodec codec(boolean withGid) {
        return withGid ? PerftestKeyCodec.GID : PerftestKeyCodec.NO_GID;
    }
}
