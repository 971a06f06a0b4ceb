package org.jrdma.tools.perf;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PeerClosedException;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;

/**
 * perftest's TCP conversation: between two PerfExchanges, and against a scripted peer that
 * speaks perftest's bytes in perftest's order (the client writes first, the server reads first),
 * so a wrong byte count or order deadlocks into a deadline instead of passing.
 */
class PerfExchangeTest {
    private static final Duration T = Duration.ofSeconds(10);

    static KeyMessage key(int qpn) throws Exception {
        return new KeyMessage(0, 16, qpn, 0x10203 + qpn, 0xabcdef01, 0x7f0000001000L + qpn,
                Gid.of(InetAddress.getByName("127.0.0." + (qpn % 200 + 1))), 0);
    }

    /** Everything one side learns from a full conversation. */
    record Seen(PeerVersion version, int[] sys, Mtu mtu, KeyMessage key, KeyMessage sync, BwReport report) {
    }

    static Seen converse(PerfExchange x, Mtu mtu, KeyMessage mine, BwReport report) {
        PeerVersion v = x.versions();
        int[] sys = x.sysData(PerfExchange.CYCLE_BUFFER, PerfExchange.CACHE_LINE);
        Mtu m = x.mtu(mtu);
        KeyMessage k = x.keys(mine, "QP 0");
        KeyMessage s = x.sync(mine, "sync");
        BwReport r = x.reports(report);
        x.close(mine);
        return new Seen(v, sys, m, k, s, r);
    }

    @Test
    void twoSidesSwapEverything() throws Exception {
        int port = FreeLoopback.tcpPort();
        KeyMessage serverKey = key(0x11);
        KeyMessage clientKey = key(0x22);
        BwReport serverReport = BwReport.EMPTY;
        BwReport clientReport = new BwReport(65536, 5000, 11030.78, 11030.5, 0.176488);
        CompletableFuture<Seen> server = CompletableFuture.supplyAsync(() ->
                converse(PerfExchange.accept(port, T, T), Mtu.MTU_4096, serverKey, serverReport));
        Seen client = converse(PerfExchange.connect("127.0.0.1", port, T, T, line -> { }), Mtu.MTU_1024, clientKey, clientReport);
        Seen srv = server.get(30, TimeUnit.SECONDS);

        assertThat(client.version().text()).isEqualTo("6.06");
        assertThat(srv.version().text()).isEqualTo("6.06");
        assertThat(client.mtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(srv.mtu()).isEqualTo(Mtu.MTU_1024); // both take the smaller
        assertThat(client.sys()).containsExactly(4096, 64);
        assertThat(client.key()).isEqualTo(serverKey);
        assertThat(srv.key()).isEqualTo(clientKey);
        assertThat(srv.sync()).isEqualTo(clientKey);
        assertThat(srv.report()).isEqualTo(clientReport);
        assertThat(client.report()).isEqualTo(serverReport);
    }

    /** A perftest 6.29 server, scripted: reads first, then writes, each message exactly as perftest sizes it. */
    @Test
    void ourClientAgainstAScriptedPerftestServer() throws Exception {
        KeyMessage theirs = key(0x33);
        KeyMessage ours = key(0x44);
        BwReport ourReport = new BwReport(4096, 100, 1.5, 1.25, 0.000305);
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<byte[][]> peer = CompletableFuture.supplyAsync(() -> {
                try (Socket s = listener.accept()) {
                    s.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    byte[] version = read(in, 16);
                    out.write(Arrays.copyOf("6.29".getBytes(US_ASCII), 16));
                    int cycle = in.readInt();
                    out.writeInt(8192);
                    int line = in.readInt();
                    out.writeInt(128);
                    byte[] mtu = read(in, 2);
                    out.write(new byte[] {'3', 0});
                    byte[] key = read(in, 108);
                    out.write(PerftestKeyCodec.GID.encodeKey(theirs));
                    byte[] report = new byte[40];
                    for (int i = 0; i < 5; i++) { // five swaps of 8 bytes; the server's report is unfilled
                        in.readFully(report, 8 * i, 8);
                        out.write(new byte[8]);
                    }
                    byte[] close = read(in, 108);
                    out.write(PerftestKeyCodec.GID.encodeKey(theirs));
                    byte[] done = read(in, 5);
                    out.write(PerfExchange.DONE);
                    return new byte[][] {version, {(byte) (cycle >> 12), (byte) line}, mtu, key, report, close, done};
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            PerfExchange x = PerfExchange.connect("127.0.0.1", listener.getLocalPort(), T, T, line -> { });
            assertThat(x.versions().number()).isEqualTo(6.29);
            assertThat(x.sysData(4096, 64)).containsExactly(8192, 128);
            assertThat(x.mtu(Mtu.MTU_4096)).isEqualTo(Mtu.MTU_1024);
            assertThat(x.keys(ours, "QP 0")).isEqualTo(theirs);
            assertThat(x.reports(ourReport)).isEqualTo(BwReport.EMPTY);
            x.close(ours);

            byte[][] got = peer.get(30, TimeUnit.SECONDS);
            assertThat(got[0]).isEqualTo(Arrays.copyOf("6.06".getBytes(US_ASCII), 16));
            assertThat(got[1]).containsExactly(1, 64); // 4096 >> 12, 64
            assertThat(got[2]).containsExactly('5', 0); // IBV_MTU_4096 as "%d" with its NUL
            assertThat(PerftestKeyCodec.GID.decodeKey(got[3])).isEqualTo(ours);
            DataInputStream report = new DataInputStream(new java.io.ByteArrayInputStream(got[4]));
            assertThat(report.readLong()).isEqualTo(4096);
            assertThat(report.readLong()).isEqualTo(100);
            assertThat(report.readDouble()).isEqualTo(1.5); // big-endian IEEE, as hton_double
            assertThat(report.readDouble()).isEqualTo(1.25);
            assertThat(report.readDouble()).isEqualTo(0.000305);
            assertThat(PerftestKeyCodec.GID.decodeKey(got[5])).isEqualTo(ours);
            assertThat(got[6]).isEqualTo(PerfExchange.DONE);
        }
    }

    /** A perftest 6.29 client, scripted: writes first, then reads. */
    @Test
    void ourServerAgainstAScriptedPerftestClient() throws Exception {
        int port = FreeLoopback.tcpPort();
        KeyMessage theirs = key(0x55);
        KeyMessage ours = key(0x66);
        CompletableFuture<KeyMessage> server = CompletableFuture.supplyAsync(() -> {
            PerfExchange x = PerfExchange.accept(port, T, T);
            x.versions();
            x.sysData(4096, 64);
            x.mtu(Mtu.MTU_2048);
            KeyMessage k = x.keys(ours, "QP 0");
            BwReport client = x.reports(BwReport.EMPTY).validated();
            assertThat(client.iters()).isEqualTo(5000);
            x.close(ours);
            return k;
        });
        try (Socket s = connectWithRetry(port)) {
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(Arrays.copyOf("5.70".getBytes(US_ASCII), 16));
            assertThat(new String(read(in, 16), US_ASCII)).startsWith("6.06\0");
            out.writeInt(4096);
            assertThat(in.readInt()).isEqualTo(4096);
            out.writeInt(64);
            assertThat(in.readInt()).isEqualTo(64);
            out.write(new byte[] {'5', 0});
            assertThat(read(in, 2)).containsExactly('4', 0);
            out.write(PerftestKeyCodec.GID.encodeKey(theirs));
            assertThat(PerftestKeyCodec.GID.decodeKey(read(in, 108))).isEqualTo(ours);
            out.writeLong(65536);
            in.readLong();
            out.writeLong(5000);
            in.readLong();
            for (double d : new double[] {2.5, 2.25, 0.5}) {
                out.writeDouble(d);
                in.readDouble();
            }
            out.write(PerftestKeyCodec.GID.encodeKey(theirs));
            read(in, 108);
            out.write(PerfExchange.DONE);
            assertThat(read(in, 5)).isEqualTo(PerfExchange.DONE);
        }
        assertThat(server.get(30, TimeUnit.SECONDS)).isEqualTo(theirs);
    }

    @Test
    void aPeerThatClosesEarlyOrSendsGarbageIsNamed() throws Exception {
        int port = FreeLoopback.tcpPort();
        CompletableFuture<Throwable> server = CompletableFuture.supplyAsync(() -> {
            try {
                PerfExchange x = PerfExchange.accept(port, T, T);
                x.versions();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        try (Socket s = connectWithRetry(port)) {
            s.getOutputStream().write("6.2".getBytes(US_ASCII)); // 3 of 16 bytes, then EOF
        }
        assertThat(server.get(30, TimeUnit.SECONDS)).isInstanceOf(PeerClosedException.class).hasMessageContaining("3 of 16");

        int port2 = FreeLoopback.tcpPort();
        KeyMessage one = key(1);
        CompletableFuture<Throwable> server2 = CompletableFuture.supplyAsync(() -> {
            try {
                PerfExchange x = PerfExchange.accept(port2, T, T);
                x.versions();
                x.sysData(4096, 64);
                x.mtu(Mtu.MTU_1024);
                x.keys(one, "QP 0");
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        try (Socket s = connectWithRetry(port2)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(Arrays.copyOf("6.29".getBytes(US_ASCII), 16));
            in.readNBytes(16);
            out.write(new byte[] {0, 0, 16, 0, 0, 0, 0, 64});
            in.readNBytes(8);
            out.write(new byte[] {'3', 0});
            in.readNBytes(2);
            byte[] key = PerftestKeyCodec.GID.encodeKey(key(2));
            key[13] = 'Z'; // inside the QPN
            out.write(key);
            assertThat(server2.get(30, TimeUnit.SECONDS)).isInstanceOf(MalformedMessageException.class)
                    .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("qpn"));
        }
    }

    @Test
    void aSilentClientMeetsTheDeadline() throws Exception {
        int port = FreeLoopback.tcpPort();
        CompletableFuture<Throwable> server = CompletableFuture.supplyAsync(() -> {
            try {
                PerfExchange.accept(port, Duration.ofMillis(300), Duration.ofMillis(300)).versions();
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });
        try (Socket silent = connectWithRetry(port)) {
            assertThat(silent.isConnected()).isTrue();
            assertThat(server.get(30, TimeUnit.SECONDS)).isInstanceOf(ExchangeTimeoutException.class)
                    .hasMessageContaining("read");
        }
        assertThatThrownBy(() -> PerfExchange.accept(FreeLoopback.tcpPort(), Duration.ofMillis(100), T))
                .isInstanceOf(ExchangeTimeoutException.class).hasMessageContaining("accept");
    }

    private static Socket connectWithRetry(int port) throws Exception {
        long deadline = System.nanoTime() + T.toNanos();
        while (true) {
            try {
                return new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(5_000_000); // retry backoff until the server listens
            }
        }
    }

    private static byte[] read(DataInputStream in, int n) throws java.io.IOException {
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
