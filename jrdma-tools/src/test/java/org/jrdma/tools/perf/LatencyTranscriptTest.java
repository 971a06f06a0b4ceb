package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TCP conversation of a latency test against a scripted perftest "6.06" (Debian's 4.5-0.17)
 * client, byte for byte as ib_read_lat spoke it on the rxe lab (tcpdump on the guest's lo):
 * versions, cycle buffer, cache line, MTU, FOUR key exchanges, then (after the client measured)
 * one closing key exchange and "done" from each side. jrdma's read_lat server runs no RDMA of its
 * own, so the client can be a script; with three key exchanges at the start our closing one met
 * the client's fourth and our "done" its closing key message.
 */
class LatencyTranscriptTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("lat");

    @Test
    void readLatServerSpeaksPerftest606sSequence() throws Exception {
        int port = FreeLoopback.tcpPort();
        CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of("perf", "read_lat", "-d", DEVICE.name(),
                "-p", String.valueOf(port), "-n", "20", "-s", "64", "--timeout-ms", "20000", "--run-timeout-s", "30"));
        KeyMessage ours = PerfExchangeTest.key(0x77);
        try (Socket s = connect(port)) {
            s.setSoTimeout(20_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(Arrays.copyOf("6.06".getBytes(US_ASCII), 16));
            in.readFully(new byte[16]);
            out.writeInt(4096);
            in.readInt();
            out.writeInt(64);
            in.readInt();
            out.write(new byte[] {'3', 0});
            in.readFully(new byte[2]);
            KeyMessage first = null;
            for (int i = 0; i < 4; i++) { // ib_read_lat 6.06: four key exchanges before the test
                out.write(PerftestKeyCodec.GID.encodeKey(ours));
                byte[] theirs = new byte[PerftestKeyCodec.GID_SIZE];
                in.readFully(theirs);
                KeyMessage k = PerftestKeyCodec.GID.decodeKey(theirs);
                first = first == null ? k : first;
                assertThat(k).isEqualTo(first);
            }
            // (the client measures here) ctx_close_connection: one more key exchange, then "done"
            out.write(PerftestKeyCodec.GID.encodeKey(ours));
            byte[] closing = new byte[PerftestKeyCodec.GID_SIZE];
            in.readFully(closing);
            assertThat(PerftestKeyCodec.GID.decodeKey(closing)).isEqualTo(first);
            byte[] done = new byte[PerfExchange.DONE.length];
            in.readFully(done);
            assertThat(done).isEqualTo(PerfExchange.DONE);
            out.write(PerfExchange.DONE);
        }
        ToolRun side = server.get(60, TimeUnit.SECONDS);
        assertThat(side.code()).as(side.toString()).isZero();
    }

    private static Socket connect(int port) throws Exception {
        for (int i = 0; i < 400; i++) { // until the server listens
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (ConnectException e) {
                Thread.sleep(25);
            }
        }
        throw new IllegalStateException("the server did not listen on " + port);
    }
}
