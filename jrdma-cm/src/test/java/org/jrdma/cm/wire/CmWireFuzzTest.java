package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Random;
import org.jrdma.testkit.fuzz.Fuzz;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing the CM MAD codec and rdma_cm's header in REQ private data (issue 6 item 7; extends
 * {@link MalformedMadTest}'s mutation loop). Seeds are the MADs of a real rping connection
 * ({@link RpingMads}). Properties: nothing but {@link CmFormatException} escapes; a MAD decoded
 * from the middle of a larger buffer gives the same result with two different canaries around
 * it (no read outside {@code [off, off + 256)}); what decodes re-encodes to bytes that decode to
 * the same message; a cma_hdr round-trips with its user data.
 */
class CmWireFuzzTest {
    @Test
    void bytesOfEveryLengthAreAMadOrRefusedTyped() {
        Random r = new Random(Fuzz.seed(0xC3A1));
        for (int len = 0; len <= Mad.SIZE + 40; len++) {
            for (int k = 0; k < 10; k++) {
                byte[] b = k % 2 == 0 ? Fuzz.randomBytes(r, len)
                        : java.util.Arrays.copyOf(RpingMads.ALL.get(r.nextInt(RpingMads.ALL.size())).mad(), len);
                String result = decode(b, 0, len);
                if (len != Mad.SIZE) {
                    assertThat(result).startsWith("refused length");
                }
            }
        }
    }

    @Test
    void mutatedMadsDecodeTheSameWhateverSurroundsThem() {
        Fuzz.run("CM MAD mutated", 6_000, 10, 0xC3A2, c -> {
            Random r = c.random();
            byte[] mad = RpingMads.ALL.get(r.nextInt(RpingMads.ALL.size())).mad().clone();
            // Mostly keep the length: a MAD is always 256 bytes, so the interesting bugs are inside.
            byte[] b = c.input(r.nextInt(8) == 0 ? Fuzz.mutate(mad, r) : Fuzz.flipBits(mutateInPlace(mad, r), r, r.nextInt(3)));
            String exact = decode(b, 0, b.length);
            int before = r.nextInt(64);
            int after = r.nextInt(64);
            assertThat(decode(Fuzz.embed(b, before, after, r), before, b.length)).isEqualTo(exact);
            assertThat(decode(Fuzz.embed(b, before, after, r), before, b.length)).isEqualTo(exact);
        });
    }

    /** A valid header and a random body: every message layout's reader meets garbage. */
    @Test
    void randomBodiesBehindAValidHeaderDecodeOrFailTyped() {
        Fuzz.run("CM MAD random body", 6_000, 10, 0xC3A3, c -> {
            Random r = c.random();
            byte[] b = RpingMads.ALL.get(r.nextInt(RpingMads.ALL.size())).mad().clone();
            for (int i = Mad.HEADER_SIZE; i < Mad.SIZE; i++) {
                b[i] = (byte) r.nextInt(256);
            }
            if (r.nextInt(4) == 0) { // any CM attribute, the unsupported ones too
                int[] ids = {0x0001, 0x0010, 0x0011, 0x0012, 0x0013, 0x0014, 0x0015, 0x0016, 0x0017, 0x0018, 0x0019, 0x001A, 0x0099};
                int id = ids[r.nextInt(ids.length)];
                b[16] = (byte) (id >>> 8);
                b[17] = (byte) id;
            }
            decode(c.input(b), 0, b.length);
        });
    }

    @Test
    void cmaHeadersDecodeOrFailTypedAndRoundTrip() {
        Fuzz.run("cma_hdr", 20_000, 0xC3A4, c -> {
            Random r = c.random();
            boolean v4 = r.nextBoolean();
            InetAddress src = InetAddress.getByAddress(Fuzz.randomBytes(r, v4 ? 4 : 16));
            InetAddress dst = InetAddress.getByAddress(Fuzz.randomBytes(r, v4 ? 4 : 16));
            byte[] user = Fuzz.randomBytes(r, r.nextInt(CmaHeader.USER_DATA_SIZE + 1));
            CmaHeader h = CmaHeader.of(r.nextInt(0x10000), src, dst);
            byte[] p = h.withUserData(user);
            if (r.nextInt(4) == 0) {
                CmaHeader back = CmaHeader.decode(p);
                assertThat(back.sourcePort()).isEqualTo(h.sourcePort());
                assertThat(back.ipVersion()).isEqualTo(h.ipVersion());
                byte[] expectedUser = java.util.Arrays.copyOf(user, CmaHeader.USER_DATA_SIZE);
                assertThat(CmaHeader.userData(p)).isEqualTo(expectedUser);
                return;
            }
            byte[] b = c.input(Fuzz.mutate(p, r));
            try {
                CmaHeader back = CmaHeader.decode(b);
                assertThat(back.cmaVersion()).isEqualTo(CmaHeader.CMA_VERSION);
                assertThat(back.ipVersion()).isIn(4, 6);
            } catch (CmFormatException typed) {
                assertThat(typed.field()).isNotBlank();
            }
        });
    }

    private static byte[] mutateInPlace(byte[] mad, Random r) {
        for (int i = r.nextInt(4); i > 0; i--) {
            mad[r.nextInt(r.nextBoolean() ? Mad.HEADER_SIZE + 16 : Mad.SIZE)] = (byte) r.nextInt(256);
        }
        return mad;
    }

    /**
     * The outcome as text (the message, or the refusal's field and text), after checking the
     * properties: only CmFormatException, and a decoded MAD re-encodes to one that decodes equal.
     */
    private static String decode(byte[] b, int off, int len) {
        CmMad cm;
        try {
            cm = CmCodec.decode(b, off, len);
        } catch (CmFormatException typed) {
            assertThat(typed.field()).isNotBlank();
            return "refused " + typed.field() + ": " + typed.getMessage();
        }
        assertThat(cm.message().attribute().id()).isEqualTo(cm.header().attributeId());
        ByteBuffer again = ByteBuffer.allocate(Mad.SIZE);
        CmCodec.encode(cm.header(), cm.message(), again);
        try {
            assertThat(CmCodec.decode(again.array(), 0, Mad.SIZE)).isEqualTo(cm);
        } catch (CmFormatException e) {
            throw new AssertionError("a decoded MAD re-encoded to one that does not decode: " + e, e);
        }
        return cm.toString();
    }
}
