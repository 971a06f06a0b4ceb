package org.jrdma.bootstrap.fixed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.testkit.fuzz.Fuzz;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;

/**
 * Fuzzing the static config's text format (issue 6 item 7; OOB-13): random valid configs in
 * every spelling the format allows (decimal or hex, GID as 32 hex digits or an IP literal, any
 * key order, comments, blank lines, CRLF, spaces around '=') parse to exactly the peer they were
 * written from; mutations of them and random text parse or fail with
 * {@link MalformedMessageException} and nothing else.
 */
class PeerConfigFuzzTest {
    @Test
    void validConfigsInEverySpellingRoundTrip() {
        Fuzz.run("PeerConfig valid", 10_000, 0xC0F1, c -> {
            Random r = c.random();
            ConnInfo info = randomInfo(r);
            Mtu mtu = r.nextBoolean() ? Mtu.values()[r.nextInt(Mtu.values().length)] : null;
            PeerConfig parsed = PeerConfig.parse(c.input(write(info, mtu, r)));
            assertThat(parsed.peer()).isEqualTo(info);
            assertThat(parsed.mtu().orElse(null)).isEqualTo(mtu);
        });
    }

    @Test
    void mutatedConfigsParseOrFailTyped() {
        Fuzz.run("PeerConfig mutated", 20_000, 0xC0F2, c -> {
            Random r = c.random();
            byte[] valid = write(randomInfo(r), r.nextBoolean() ? Mtu.MTU_1024 : null, r).getBytes(StandardCharsets.ISO_8859_1);
            check(c.input(new String(Fuzz.mutate(valid, r), StandardCharsets.ISO_8859_1)));
        });
    }

    @Test
    void randomTextParsesOrFailsTyped() {
        Fuzz.run("PeerConfig random text", 20_000, 0xC0F3, c -> {
            Random r = c.random();
            StringBuilder s = new StringBuilder();
            String[] pieces = {"lid", "qpn", "psn", "gid", "mtu", "=", " ", "\n", "\r\n", "#", "0x", "ffff", "::", ".", "1024",
                "99999999999", "-1", "0X", "\u00e9", "\u0000", "10.0.0.1", "fe80::1", "%eth0", "[", "]"};
            for (int n = r.nextInt(40); n > 0; n--) {
                s.append(pieces[r.nextInt(pieces.length)]);
            }
            check(c.input(s.toString()));
        });
    }

    /** Up to the size limit and past it: the limit is checked before anything is parsed. */
    @Test
    void longTextIsRefusedBySize() {
        Fuzz.run("PeerConfig long text", 200, 0xC0F4, c -> {
            Random r = c.random();
            String valid = write(randomInfo(r), null, r);
            String padded = valid + "#".repeat(r.nextInt(2 * PeerConfigParser.MAX_CHARS));
            check(c.input(padded));
            if (padded.length() > PeerConfigParser.MAX_CHARS) {
                try {
                    PeerConfig.parse(padded);
                    throw new AssertionError("a config over the size limit was accepted");
                } catch (MalformedMessageException e) {
                    assertThat(e.field()).isEqualTo("size");
                }
            }
        });
    }

    private static void check(String text) {
        try {
            PeerConfig parsed = PeerConfig.parse(text);
            assertThat(parsed.peer()).isNotNull();
        } catch (MalformedMessageException typed) {
            assertThat(typed.field()).isNotBlank();
            assertThat(typed.getMessage()).hasSizeLessThan(400);
        }
    }

    /** One of the many texts that say {@code info} (and {@code mtu}, if not null). */
    private static String write(ConnInfo info, Mtu mtu, Random r) {
        List<String> lines = new ArrayList<>();
        lines.add(entry("lid", number(info.lid(), r), r));
        lines.add(entry("qpn", number(info.qpn(), r), r));
        lines.add(entry("psn", number(info.psn(), r), r));
        lines.add(entry("gid", gid(info, r), r));
        if (mtu != null) {
            lines.add(entry("mtu", Integer.toString(mtu.bytes()), r));
        }
        Collections.shuffle(lines, r);
        for (int n = r.nextInt(3); n > 0; n--) {
            lines.add(r.nextInt(lines.size() + 1), r.nextBoolean() ? "# a comment = with equals" : "   ");
        }
        return String.join(r.nextBoolean() ? "\n" : "\r\n", lines) + (r.nextBoolean() ? "\n" : "");
    }

    private static String entry(String key, String value, Random r) {
        String sp = r.nextBoolean() ? " " : "";
        return (r.nextBoolean() ? "\t" : "") + key + sp + "=" + sp + value;
    }

    private static String number(int v, Random r) {
        return switch (r.nextInt(3)) {
            case 0 -> Integer.toString(v);
            case 1 -> "0x" + Integer.toHexString(v);
            default -> "0X" + Integer.toHexString(v).toUpperCase();
        };
    }

    private static String gid(ConnInfo info, Random r) {
        byte[] raw = info.gid().toBytes();
        if (r.nextInt(3) == 0) {
            try { // the IP literal: dotted IPv4 for a mapped GID, else IPv6 text
                return java.net.InetAddress.getByAddress(raw).getHostAddress();
            } catch (java.net.UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
        String hex = HexFormat.of().formatHex(raw);
        return r.nextBoolean() ? hex.toUpperCase() : hex;
    }

    private static ConnInfo randomInfo(Random r) {
        byte[] gid = new byte[16];
        r.nextBytes(gid);
        if (gid[0] == (byte) 0xFF) {
            gid[0] = 0;
        }
        if (r.nextBoolean()) { // an IPv4-mapped GID, which the config may also spell as an IP literal
            java.util.Arrays.fill(gid, 0, 10, (byte) 0);
            gid[10] = (byte) 0xFF;
            gid[11] = (byte) 0xFF;
        }
        return new ConnInfo(r.nextInt(0x10000), 2 + r.nextInt(0xFFFFFE - 1), r.nextInt(0x1000000),
                org.jrdma.verbs.Gid.of(gid));
    }
}
