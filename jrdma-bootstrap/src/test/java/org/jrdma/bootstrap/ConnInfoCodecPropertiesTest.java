package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * Round trips over the whole valid range, as seeded loops so a failure replays: the seed and
 * the case number are in every assertion message.
 */
class ConnInfoCodecPropertiesTest {
    private static final int CASES = 2000;

    @Test
    void textRoundTrips() {
        Random r = new Random(18515);
        for (int n = 0; n < CASES; n++) {
            ConnInfo info = randomInfo(r);
            byte[] wire = PingpongTextCodec.INSTANCE.encode(info);
            assertThat(wire).as("seed 18515 case %d", n).hasSize(52);
            assertThat(wire[51]).isZero();
            assertThat(PingpongTextCodec.INSTANCE.decode(wire)).as("seed 18515 case %d", n).isEqualTo(info);
            assertThat(PingpongTextCodec.INSTANCE.parseText(PingpongTextCodec.INSTANCE.formatText(info))).isEqualTo(info);
        }
    }

    @Test
    void binaryRoundTrips() {
        Random r = new Random(18516);
        for (int n = 0; n < CASES; n++) {
            ConnInfo info = randomInfo(r);
            byte[] wire = SeedBinaryCodec.INSTANCE.encode(info);
            assertThat(wire).hasSize(28);
            assertThat(SeedBinaryCodec.INSTANCE.decode(wire)).as("seed 18516 case %d", n).isEqualTo(info);
        }
    }

    /** OOB-17 in small: a valid message with 1–3 bytes replaced either decodes or fails typed. */
    @Test
    void mutatedMessagesOnlyEverFailTyped() {
        Random r = new Random(18517);
        for (int n = 0; n < CASES; n++) {
            byte[] wire = PingpongTextCodec.INSTANCE.encode(randomInfo(r));
            int changes = 1 + r.nextInt(3);
            for (int i = 0; i < changes; i++) {
                wire[r.nextInt(52)] = (byte) r.nextInt(256);
            }
            try {
                PingpongTextCodec.INSTANCE.decode(wire);
            } catch (MalformedMessageException expected) {
                assertThat(expected.getMessage()).as("seed 18517 case %d", n).hasSizeLessThan(400);
            }
        }
    }

    /** OOB-08: a PSN ≥ 2^24 is always refused by both codecs. */
    @Test
    void aPsnAbove24BitsIsAlwaysRefused() {
        Random r = new Random(18518);
        for (int n = 0; n < CASES; n++) {
            ConnInfo info = randomInfo(r);
            int psn = r.nextBoolean() ? 0x1000000 + r.nextInt(Integer.MAX_VALUE - 0x1000000) : -1 - r.nextInt(Integer.MAX_VALUE);
            byte[] wire = SeedBinaryCodec.INSTANCE.encode(info);
            java.nio.ByteBuffer.wrap(wire).putInt(8, psn);
            assertThatThrownBy(() -> SeedBinaryCodec.INSTANCE.decode(wire))
                    .as("seed 18518 case %d psn %x", n, psn)
                    .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.field()).isEqualTo("psn"));
        }
    }

    private static ConnInfo randomInfo(Random r) {
        byte[] gid = new byte[16];
        r.nextBytes(gid);
        if (gid[0] == (byte) 0xFF) {
            gid[0] = 0; // multicast GIDs are refused by design
        }
        return new ConnInfo(r.nextInt(0x10000), 2 + r.nextInt(0xFFFFFE - 1), r.nextInt(0x1000000), Gid.of(gid));
    }
}
