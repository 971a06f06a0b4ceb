package org.jrdma.bootstrap.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * Golden vectors (issue 7 item 1): the 52-byte messages rc_pingpong, uc_pingpong and ud_pingpong
 * exchanged between two rxe hosts, and between the lab host and rxe (host_rc_pingpong), captured
 * as TCP payload in src/test/resources/org/jrdma/bootstrap/golden/*.oob.txt. Our text codec
 * parses each and produces it again byte for byte; the GID each side sends is its own IPv4
 * address, IPv4-mapped, an independent check on the parse.
 */
class GoldenVectorPingpongOobTest {
    private static final List<String> CAPTURES = List.of("rc_pingpong", "host_rc_pingpong", "uc_pingpong",
            "ud_pingpong");
    private static final Pattern SEGMENT = Pattern.compile("^(\\d+) (\\S+):(\\d+) -> (\\S+):(\\d+) len=(\\d+) \\| (.*)$");
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    record Segment(int frame, String srcIp, String ascii, byte[] bytes) {
    }

    static List<Segment> segments(String capture) throws IOException {
        String text;
        try (InputStream in = GoldenVectorPingpongOobTest.class.getResourceAsStream(capture + ".oob.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        List<Segment> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = SEGMENT.matcher(lines[i]);
            if (m.matches()) {
                String hex = lines[i + 1].strip();
                assertThat(hex).startsWith("hex: ");
                byte[] bytes = HexFormat.of().parseHex(hex.substring(5));
                assertThat(bytes).hasSize(Integer.parseInt(m.group(6)));
                out.add(new Segment(Integer.parseInt(m.group(1)), m.group(2), m.group(7), bytes));
            }
        }
        return out;
    }

    @Test
    void everyCapturedMessageParsesAndReencodesByteForByte() throws IOException {
        PingpongTextCodec codec = PingpongTextCodec.INSTANCE;
        int messages = 0;
        for (String capture : CAPTURES) {
            List<Segment> segs = segments(capture);
            // client's message, server's message, client's "done"
            assertThat(segs).as(capture).hasSize(3);
            for (Segment s : segs.subList(0, 2)) {
                String what = capture + " frame " + s.frame();
                assertThat(s.bytes()).as(what).hasSize(PingpongTextCodec.SIZE);
                codec.checkPrefix(s.bytes(), s.bytes().length);
                ConnInfo info = codec.decode(s.bytes());
                assertThat(codec.encode(info)).as(what).isEqualTo(s.bytes());
                String text = new String(s.bytes(), 0, PingpongTextCodec.TEXT_LENGTH, StandardCharsets.US_ASCII);
                assertThat(s.ascii()).isEqualTo(text + "\\x00");
                assertThat(codec.parseText(text)).as(what).isEqualTo(info);
                assertThat(codec.formatText(info)).as(what).isEqualTo(text);
                // independent reading: rxe's RoCEv2 GID is the sender's IPv4 address, IPv4-mapped; LID 0
                assertThat(info.gid()).as(what).isEqualTo(Gid.of(InetAddress.getByName(s.srcIp())));
                assertThat(info.lid()).as(what).isZero();
                assertThat(info.qpn()).as(what).isEqualTo(Integer.parseInt(text.substring(5, 11), 16));
                assertThat(info.psn()).as(what).isEqualTo(Integer.parseInt(text.substring(12, 18), 16));
                messages++;
            }
            assertThat(segs.get(2).bytes()).as(capture).isEqualTo(DONE);
        }
        assertThat(messages).isEqualTo(8);
        System.out.println("golden vectors: " + messages + " captured rc/uc/ud_pingpong messages re-encoded byte for byte");
    }
}
