package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;

/**
 * Golden vectors (issue 7 item 1): perftest 6.06's TCP conversations, captured between two rxe
 * hosts (src/test/resources/org/jrdma/tools/perf/golden/*.oob.txt: every TCP payload segment in
 * hex). Our codecs parse and produce every captured string byte for byte, and our PerfExchange,
 * given the client's captured fields, writes exactly the client's captured bytes to a scripted
 * server that replays the captured server.
 */
class GoldenVectorPerftestOobTest {
    static final List<String> CAPTURES = List.of("atomic_cmpswap_bw", "atomic_fadd_bw", "read_bw", "send_bw",
            "send_lat", "write_bw", "write_bw_uc");
    private static final Pattern SEGMENT = Pattern.compile("^(\\d+) (\\S+):(\\d+) -> (\\S+):(\\d+) len=(\\d+) \\|.*$");
    private static final Duration T = Duration.ofSeconds(10);

    /** One TCP payload segment; {@code fromClient} when sent by the side that connected (not port 18515). */
    record Segment(int frame, boolean fromClient, byte[] bytes) {
    }

    static List<Segment> segments(String capture) throws IOException {
        String text;
        try (InputStream in = GoldenVectorPerftestOobTest.class.getResourceAsStream("golden/" + capture + ".oob.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        List<Segment> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            Matcher m = SEGMENT.matcher(lines[i]);
            if (!m.matches()) {
                continue;
            }
            String hex = lines[i + 1].strip();
            assertThat(hex).startsWith("hex: ");
            byte[] bytes = HexFormat.of().parseHex(hex.substring(5));
            assertThat(bytes).hasSize(Integer.parseInt(m.group(6)));
            out.add(new Segment(Integer.parseInt(m.group(1)), !m.group(3).equals("18515"), bytes));
        }
        return out;
    }

    /** Version (16), sys data (4 + 4), MTU (2), key messages (108), reports (8), "done" (5): each parses and re-encodes. */
    @Test
    void everyCapturedMessageParsesAndReencodesByteForByte() throws IOException {
        StringBuilder report = new StringBuilder("golden vectors, perftest OOB segments:\n");
        int keys = 0;
        for (String capture : CAPTURES) {
            List<Segment> segs = segments(capture);
            // the handshake: version, cycle buffer, cache line, MTU — client then server each
            int[] sizes = {16, 16, 4, 4, 4, 4, 2, 2};
            for (int i = 0; i < sizes.length; i++) {
                assertThat(segs.get(i).bytes()).as(capture + " segment " + i).hasSize(sizes[i]);
                assertThat(segs.get(i).fromClient()).isEqualTo(i % 2 == 0);
            }
            for (int i = 0; i < 2; i++) {
                byte[] v = segs.get(i).bytes();
                PeerVersion version = PeerVersion.decode(v);
                assertThat(version.number()).isEqualTo(6.06);
                version.requireCompatible();
                assertThat(PeerVersion.encodeOurs()).as(capture + ": we claim perftest's 6.06 with its padding").isEqualTo(v);
            }
            // perftest's sys data is what we send: cycle buffer 4096, cache line 64, big-endian
            assertThat(segs.get(2).bytes()).isEqualTo(be32(PerfExchange.CYCLE_BUFFER));
            assertThat(segs.get(3).bytes()).isEqualTo(be32(PerfExchange.CYCLE_BUFFER));
            assertThat(segs.get(4).bytes()).isEqualTo(be32(PerfExchange.CACHE_LINE));
            assertThat(segs.get(5).bytes()).isEqualTo(be32(PerfExchange.CACHE_LINE));
            assertThat(segs.get(6).bytes()).containsExactly('0' + Mtu.MTU_1024.value(), 0);
            assertThat(segs.get(7).bytes()).containsExactly('0' + Mtu.MTU_1024.value(), 0);
            int n108 = 0;
            int n8 = 0;
            int nDone = 0;
            for (Segment s : segs.subList(8, segs.size())) {
                switch (s.bytes().length) {
                    case PerftestKeyCodec.GID_SIZE -> {
                        PerftestKeyCodec.GID.checkPrefix(s.bytes(), s.bytes().length);
                        KeyMessage k = PerftestKeyCodec.GID.decodeKey(s.bytes());
                        assertThat(PerftestKeyCodec.GID.encodeKey(k)).as(capture + " frame " + s.frame())
                                .isEqualTo(s.bytes());
                        n108++;
                    }
                    case 8 -> n8++;
                    case 5 -> {
                        assertThat(s.bytes()).isEqualTo(PerfExchange.DONE);
                        nDone++;
                    }
                    default -> throw new AssertionError(capture + " frame " + s.frame() + ": unexpected length "
                            + s.bytes().length);
                }
            }
            assertThat(nDone).as(capture).isEqualTo(2);
            assertThat(n8).as(capture).isIn(0, 10);
            keys += n108;
            report.append(String.format("  %-18s %2d segments: 2 versions, 4 sys, 2 MTU, %2d key messages, %2d report"
                    + " words, 2 done%n", capture, segs.size(), n108, n8));
        }
        assertThat(keys).isGreaterThan(60);
        System.out.print(report);
    }

    /**
     * Replay: a scripted server plays the captured server's bytes in the captured order and checks
     * that what our PerfExchange client writes equals the captured client's bytes, where our side
     * is given the client's decoded key messages and report. Covers versions(), sysData(), mtu(),
     * keys()/sync(), reports() and close() against real perftest bytes, including the server's
     * report words, which perftest leaves unfilled (stack garbage such as 00007ffea7a57cf4).
     */
    @Test
    void ourClientReproducesTheCapturedClientAgainstTheCapturedServer() throws Exception {
        for (String capture : CAPTURES) {
            List<Segment> segs = segments(capture);
            try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                CompletableFuture<Integer> server = CompletableFuture.supplyAsync(() -> {
                    try (Socket s = listener.accept()) {
                        s.setSoTimeout(10_000);
                        DataInputStream in = new DataInputStream(s.getInputStream());
                        DataOutputStream out = new DataOutputStream(s.getOutputStream());
                        int checked = 0;
                        for (Segment seg : segs) {
                            if (seg.fromClient()) {
                                byte[] got = new byte[seg.bytes().length];
                                in.readFully(got);
                                if (!Arrays.equals(got, seg.bytes())) {
                                    throw new AssertionError(capture + " frame " + seg.frame() + ": we wrote "
                                            + HexFormat.of().formatHex(got) + ", perftest wrote "
                                            + HexFormat.of().formatHex(seg.bytes()));
                                }
                                checked++;
                            } else {
                                out.write(seg.bytes());
                            }
                        }
                        return checked;
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                PerfExchange x = PerfExchange.connect("127.0.0.1", listener.getLocalPort(), T, T, line -> { });
                assertThat(x.versions().number()).isEqualTo(6.06);
                assertThat(x.sysData(PerfExchange.CYCLE_BUFFER, PerfExchange.CACHE_LINE))
                        .containsExactly(PerfExchange.CYCLE_BUFFER, PerfExchange.CACHE_LINE);
                assertThat(x.mtu(Mtu.MTU_1024)).isEqualTo(Mtu.MTU_1024);
                List<Segment> client = segs.stream().filter(Segment::fromClient).skip(4).toList();
                List<Segment> serverKeys = segs.stream().filter(s -> !s.fromClient())
                        .filter(s -> s.bytes().length == PerftestKeyCodec.GID_SIZE).toList();
                int key = 0;
                for (int i = 0; i < client.size(); i++) {
                    byte[] b = client.get(i).bytes();
                    if (b.length == PerftestKeyCodec.GID_SIZE && client.get(i + 1).bytes().length == 5) {
                        x.close(PerftestKeyCodec.GID.decodeKey(b));
                        i++;
                    } else if (b.length == PerftestKeyCodec.GID_SIZE) {
                        assertThat(x.keys(PerftestKeyCodec.GID.decodeKey(b), "replay"))
                                .isEqualTo(PerftestKeyCodec.GID.decodeKey(serverKeys.get(key++).bytes()));
                    } else {
                        assertThat(b).hasSize(8);
                        BwReport mine = new BwReport(BwReport.u64(b), BwReport.u64(client.get(i + 1).bytes()),
                                BwReport.f64(client.get(i + 2).bytes()), BwReport.f64(client.get(i + 3).bytes()),
                                BwReport.f64(client.get(i + 4).bytes()));
                        x.reports(mine);
                        i += 4;
                    }
                }
                int checked = server.get(30, TimeUnit.SECONDS);
                assertThat(checked).isEqualTo((int) segs.stream().filter(Segment::fromClient).count());
                System.out.printf("golden vectors: %s replayed, %d client segments written byte for byte%n", capture,
                        checked);
            }
        }
    }

    private static byte[] be32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
