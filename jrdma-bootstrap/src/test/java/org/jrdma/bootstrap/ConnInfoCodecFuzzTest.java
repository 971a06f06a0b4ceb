package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jrdma.testkit.fuzz.Fuzz;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing the fixed-size ConnInfo codecs (issue 6 item 7; OOB-17 at scale): rc_pingpong's
 * 52-byte text, the seed's 28-byte binary and perftest's 108-byte key message (whose mutations
 * also make buffers: an rkey and address that must survive re-encoding). Properties: {@code decode} and {@code checkPrefix}
 * throw nothing but {@link MalformedMessageException}; every input is given as an array of
 * exactly its own length, so a read past it would surface as an untyped exception and fail;
 * what decodes re-encodes to a message that decodes to the same ConnInfo; and {@code checkPrefix}
 * never refuses a prefix of a message that decodes (it only cuts off early what decode would
 * refuse anyway). CI sizes are in the calls; {@code -Djrdma.fuzz.iterations=N} runs N.
 */
class ConnInfoCodecFuzzTest {
    private static final List<ConnInfoCodec> CODECS = List.of(PingpongTextCodec.INSTANCE, SeedBinaryCodec.INSTANCE,
            PerftestKeyCodec.GID);

    @Test
    void everyLengthFromZeroToTwiceTheSizeIsHandled() {
        Random r = new Random(Fuzz.seed(0xB0071));
        for (ConnInfoCodec codec : CODECS) {
            for (int len = 0; len <= 2 * codec.size() + 8; len++) {
                for (int k = 0; k < 20; k++) {
                    byte[] b = Arrays.copyOf(codec.encode(randomInfo(r)), len);
                    if (k % 2 == 1) {
                        r.nextBytes(b);
                    }
                    check(codec, b);
                }
            }
        }
    }

    @Test
    void mutatedMessagesDecodeOrFailTyped() {
        Fuzz.run("ConnInfo codecs mutated", 30_000, 0xB0072, c -> {
            Random r = c.random();
            ConnInfoCodec codec = CODECS.get(r.nextInt(CODECS.size()));
            check(codec, c.input(Fuzz.mutate(codec.encode(randomInfo(r)), r)));
        });
    }

    @Test
    void randomBytesOfTheRightSizeDecodeOrFailTyped() {
        Fuzz.run("ConnInfo codecs random", 30_000, 0xB0073, c -> {
            Random r = c.random();
            ConnInfoCodec codec = CODECS.get(r.nextInt(CODECS.size()));
            byte[] b = Fuzz.randomBytes(r, codec.size());
            if (codec != SeedBinaryCodec.INSTANCE && r.nextBoolean()) {
                // Mostly hex digits and colons, so decoding gets past the first position.
                byte[] alphabet = "0123456789abcdefABCDEF::\0g".getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < b.length; i++) {
                    b[i] = alphabet[r.nextInt(alphabet.length)];
                }
            }
            check(codec, c.input(b));
        });
    }

    @Test
    void validMessagesRoundTripAndNoPrefixIsRefused() {
        Fuzz.run("ConnInfo codecs round trip", 10_000, 0xB0074, c -> {
            Random r = c.random();
            ConnInfo info = randomInfo(r);
            for (ConnInfoCodec codec : CODECS) {
                byte[] wire = c.input(codec.encode(info));
                assertThat(wire).hasSize(codec.size());
                assertThat(codec.decode(wire)).isEqualTo(info);
                for (int n = 0; n <= wire.length; n++) {
                    codec.checkPrefix(Arrays.copyOf(wire, n), n);
                }
            }
        });
    }

    /** The command-line form: any string, ASCII or not, parses or fails typed. */
    @Test
    void pastedTextParsesOrFailsTyped() {
        Fuzz.run("rc_pingpong text parseText", 20_000, 0xB0075, c -> {
            Random r = c.random();
            String valid = PingpongTextCodec.INSTANCE.formatText(randomInfo(r));
            String text = switch (r.nextInt(3)) {
                case 0 -> new String(Fuzz.mutate(valid.getBytes(StandardCharsets.ISO_8859_1), r), StandardCharsets.ISO_8859_1);
                case 1 -> randomString(r, r.nextInt(60));
                default -> valid.substring(0, r.nextInt(valid.length() + 1)) + randomString(r, r.nextInt(3));
            };
            c.input(text);
            try {
                ConnInfo info = PingpongTextCodec.INSTANCE.parseText(text);
                assertThat(PingpongTextCodec.INSTANCE.parseText(PingpongTextCodec.INSTANCE.formatText(info))).isEqualTo(info);
            } catch (MalformedMessageException typed) {
                assertThat(typed.field()).isNotBlank();
            }
        });
    }

    /** The properties for one input; package-visible for the file exchange's fuzz. */
    static void check(ConnInfoCodec codec, byte[] b) {
        ConnInfo decoded = null;
        try {
            decoded = codec.decode(b);
        } catch (MalformedMessageException typed) {
            assertThat(typed.field()).isNotBlank();
            assertThat(typed.getMessage()).hasSizeLessThan(400);
        }
        if (decoded != null) {
            assertThat(b).hasSize(codec.size());
            assertThat(codec.decode(codec.encode(decoded))).isEqualTo(decoded);
        }
        for (int n = 0; n <= b.length; n++) {
            try {
                codec.checkPrefix(Arrays.copyOf(b, n), n);
            } catch (MalformedMessageException refused) {
                assertThat(decoded).as("prefix %d refused, so the message must not decode", n).isNull();
                break;
            }
        }
    }

    static ConnInfo randomInfo(Random r) {
        byte[] gid = new byte[16];
        r.nextBytes(gid);
        if (gid[0] == (byte) 0xFF) {
            gid[0] = 0; // multicast GIDs are refused by design
        }
        return new ConnInfo(r.nextInt(0x10000), 2 + r.nextInt(0xFFFFFE - 1), r.nextInt(0x1000000), Gid.of(gid));
    }

    private static final String TEXTY = "0123456789abcdefx:=#\n\r \t.";

    static String randomString(Random r, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(switch (r.nextInt(4)) {
                case 0 -> (char) r.nextInt(0x80);
                case 1 -> TEXTY.charAt(r.nextInt(TEXTY.length()));
                case 2 -> (char) r.nextInt(0x10000);
                default -> (char) ('a' + r.nextInt(26));
            });
        }
        return s.toString();
    }
}
