package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jrdma.bootstrap.AuthenticationException;
import org.jrdma.bootstrap.BootstrapException;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.FakeVerbs;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.SeedBinaryCodec;
import org.jrdma.bootstrap.TestInfos;
import org.jrdma.bootstrap.VersionMismatchException;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pre-shared-key exchange (AUTH-01, AUTH-02, OOB-07, OOB-10, OOB-11) over real loopback
 * sockets, with a relay in the middle where the wire matters.
 */
@Timeout(60)
class PskExchangeTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration GENEROUS = Duration.ofSeconds(10);
    private static final PreSharedKey KEY = PreSharedKey.of(bytes(1, 32));
    private static final PreSharedKey OTHER_KEY = PreSharedKey.of(bytes(2, 32));

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private static TcpOptions binaryPsk() {
        return TcpOptions.seedBinary().withTimeout(GENEROUS).withSecurity(TcpSecurity.psk(KEY));
    }

    private static TcpOptions psk(PreSharedKey key) {
        return TcpOptions.rcPingpong().withTimeout(GENEROUS).withSecurity(TcpSecurity.psk(key));
    }

    /** AUTH-01: both sides hold the key, each gets the other's info. */
    @Test
    void auth01BothSidesWithTheKeyExchangeInfo() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
        ConnInfo atClient = TcpExchange.client("127.0.0.1", server.localPort(), psk(KEY)).exchange(TestInfos.CLIENT);
        assertThat(atClient).isEqualTo(TestInfos.SERVER);
        assertThat(atServer.get()).isEqualTo(TestInfos.CLIENT);
    }

    /**
     * OOB-11, AUTH-01: no QPN, PSN or GID on the wire, in rc_pingpong's text or in binary, before
     * authentication — nor after it: the info travels sealed. The relay records every byte.
     */
    @Test
    void oob11NoCapabilityEverAppearsInTheBytesOnTheWire() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        try (Relay relay = new Relay(server.localPort())) {
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
            assertThat(TcpExchange.client("127.0.0.1", relay.port(), psk(KEY)).exchange(TestInfos.CLIENT)).isEqualTo(TestInfos.SERVER);
            assertThat(atServer.get()).isEqualTo(TestInfos.CLIENT);
            relay.close();
            for (byte[] wire : List.of(relay.toServer(), relay.toClient())) {
                // hello, proof, then the 52-byte message sealed: 56 + 32 + 52 + 16
                assertThat(wire).hasSize(PskHandshake.HELLO_BYTES + PskHandshake.PROOF_BYTES + 52 + PskLink.TAG_BYTES);
                for (ConnInfo info : List.of(TestInfos.CLIENT, TestInfos.SERVER)) {
                    assertNotIn(wire, PingpongTextCodec.INSTANCE.encode(info), "the rc_pingpong text");
                    assertNotIn(wire, String.format("%06x", info.qpn()).getBytes(StandardCharsets.US_ASCII), "the QPN in hex");
                    assertNotIn(wire, String.format("%06x", info.psn()).getBytes(StandardCharsets.US_ASCII), "the PSN in hex");
                    assertNotIn(wire, java.util.Arrays.copyOfRange(ByteBuffer.allocate(4).putInt(info.qpn()).array(), 1, 4), "the QPN as u24");
                    assertNotIn(wire, java.util.Arrays.copyOfRange(ByteBuffer.allocate(4).putInt(info.psn()).array(), 1, 4), "the PSN as u24");
                    assertNotIn(wire, java.util.Arrays.copyOfRange(info.gid().toBytes(), 12, 16), "the GID's IPv4 address");
                }
            }
        }
    }

    /** OOB-11: a wrong key on either side ends the handshake on both, typed, before any info is sent. */
    @Test
    void oob11WrongKeyIsATypedErrorOnBothSides() throws Exception {
        for (boolean serverWrong : new boolean[] {true, false}) {
            TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(serverWrong ? OTHER_KEY : KEY)).bind();
            try (Relay relay = new Relay(server.localPort())) {
                Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
                Throwable atClient = catchThrowable(() ->
                        TcpExchange.client("127.0.0.1", relay.port(), psk(serverWrong ? KEY : OTHER_KEY)).exchange(TestInfos.CLIENT));
                assertThat(atClient).isInstanceOf(AuthenticationException.WrongKey.class).hasMessageContaining("different pre-shared key");
                assertThat(atServer.get()).isInstanceOf(AuthenticationException.WrongKey.class);
                relay.close();
                // Only the two hellos crossed: no proof, no connection info (OOB-11).
                assertThat(relay.toServer()).hasSize(PskHandshake.HELLO_BYTES);
                assertThat(relay.toClient()).hasSize(PskHandshake.HELLO_BYTES);
                assertNoKeyOrInfoIn(atClient.getMessage());
            }
        }
    }

    /** OOB-11: through RcConnector a refused peer costs no QP — the QP is created only after authentication. */
    @Test
    void oob11NothingIsAllocatedForAPeerWithTheWrongKey() throws Exception {
        FakeVerbs serverVerbs = new FakeVerbs(TestInfos.SERVER.gid());
        FakeVerbs clientVerbs = new FakeVerbs(TestInfos.CLIENT.gid());
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() ->
                RcConnector.connect(serverVerbs.pd, server, RcOptions.defaults(serverVerbs.cq))));
        Throwable atClient = catchThrowable(() -> RcConnector.connect(clientVerbs.pd,
                TcpExchange.client("127.0.0.1", server.localPort(), psk(OTHER_KEY)), RcOptions.defaults(clientVerbs.cq)));
        assertThat(atClient).isInstanceOf(AuthenticationException.WrongKey.class);
        assertThat(atServer.get()).isInstanceOf(AuthenticationException.WrongKey.class);
        assertThat(serverVerbs.created()).isZero();
        assertThat(clientVerbs.created()).isZero();
    }

    /** AUTH-01 through RcConnector: the server's QP reaches RTS before its info leaves (rc_pingpong's order). */
    @Test
    void auth01RcConnectorConnectsBothSidesOverTheKey() throws Exception {
        FakeVerbs serverVerbs = new FakeVerbs(TestInfos.SERVER.gid());
        FakeVerbs clientVerbs = new FakeVerbs(TestInfos.CLIENT.gid());
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<RcConnection> atServer = threads.submit(() -> RcConnector.connect(serverVerbs.pd, server, RcOptions.defaults(serverVerbs.cq)));
        RcConnection c = RcConnector.connect(clientVerbs.pd, TcpExchange.client("127.0.0.1", server.localPort(), psk(KEY)),
                RcOptions.defaults(clientVerbs.cq));
        RcConnection s = atServer.get();
        assertThat(c.remote()).isEqualTo(s.local());
        assertThat(s.remote()).isEqualTo(c.local());
        assertThat(serverVerbs.qps.getFirst().states).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS);
        assertThat(clientVerbs.qps.getFirst().states).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS);
    }

    /**
     * OOB-10: the client's bytes of a successful handshake, replayed to a new server, are refused —
     * named a replay by a process that saw them, and failing the proof in one that did not (the
     * new server nonce changes the transcript).
     */
    @Test
    void oob10AReplayedHandshakeIsRefused() throws Exception {
        TcpServerExchange first = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        byte[] recorded;
        try (Relay relay = new Relay(first.localPort())) {
            Future<ConnInfo> atServer = threads.submit(() -> first.exchange(TestInfos.SERVER));
            TcpExchange.client("127.0.0.1", relay.port(), psk(KEY)).exchange(TestInfos.CLIENT);
            atServer.get();
            relay.close();
            recorded = relay.toServer();
        }
        assertThat(replayTo(recorded)).isInstanceOf(AuthenticationException.Replay.class).hasMessageContaining("replayed");
        NonceCache.forgetAll();
        assertThat(replayTo(recorded)).isInstanceOf(AuthenticationException.BadMac.class);
    }

    private Throwable replayTo(byte[] recorded) throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
        try (Socket attacker = new Socket()) {
            attacker.connect(new InetSocketAddress(LOOPBACK, server.localPort()));
            attacker.getOutputStream().write(recorded);
            Throwable t = atServer.get();
            // What came back: the server's hello, perhaps its proof, never its info.
            byte[] back = attacker.getInputStream().readAllBytes();
            assertThat(back.length).isLessThanOrEqualTo(PskHandshake.HELLO_BYTES + PskHandshake.PROOF_BYTES);
            return t;
        } catch (IOException reset) {
            return atServer.get();
        }
    }

    /**
     * AUTH-01: a man in the middle that flips one bit anywhere — hello, proof or sealed info, either
     * direction — makes the handshake fail typed on both sides; nobody gets connection info.
     */
    @Test
    void auth01OneFlippedBitAnywhereIsRefusedOnBothSides() throws Exception {
        int total = PskHandshake.HELLO_BYTES + PskHandshake.PROOF_BYTES + 52 + PskLink.TAG_BYTES;
        SplittableRandom random = new SplittableRandom(0x6A7D);
        List<Long> offsets = new ArrayList<>(List.of(0L, 8L, 10L, 12L, 16L, 24L, 55L, 56L, 87L, 88L, (long) total - 1));
        for (int i = 0; i < 6; i++) {
            offsets.add((long) random.nextInt(total));
        }
        for (Relay.Direction direction : Relay.Direction.values()) {
            for (long offset : offsets) {
                TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
                try (Relay relay = new Relay(server.localPort(), direction, offset)) {
                    Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
                    Throwable atClient = catchThrowable(() ->
                            TcpExchange.client("127.0.0.1", relay.port(), psk(KEY)).exchange(TestInfos.CLIENT));
                    Throwable serverError = atServer.get();
                    String where = direction + " bit 0 of byte " + offset;
                    // A flip in the hellos or proofs fails both sides. In the last, sealed message
                    // its receiver refuses it; its sender, whose part is done, may have finished.
                    boolean sealed = offset >= PskHandshake.HELLO_BYTES + PskHandshake.PROOF_BYTES;
                    boolean toServer = direction == Relay.Direction.TO_SERVER;
                    if (!sealed || toServer) {
                        assertThat(serverError).as(where).isInstanceOf(BootstrapException.class);
                    }
                    if (!sealed || !toServer) {
                        assertThat(atClient).as(where).isInstanceOf(BootstrapException.class);
                    }
                    Throwable receiver = toServer ? serverError : atClient;
                    assertThat(receiver).as(where).isInstanceOfAny(AuthenticationException.class, MalformedMessageException.class);
                }
            }
        }
    }

    /** AUTH-02: a PSK side never falls back to the plain exchange; the plain side refuses the hello too. */
    @Test
    void auth02APlainPeerIsRefusedNotServedInTheClear() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
        Throwable atClient = catchThrowable(() -> TcpExchange.client("127.0.0.1", server.localPort(),
                TcpOptions.rcPingpong().withTimeout(GENEROUS)).exchange(TestInfos.CLIENT));
        assertThat(atServer.get()).isInstanceOf(AuthenticationException.Downgrade.class).hasMessageContaining("--psk-file");
        assertThat(atClient).isInstanceOf(MalformedMessageException.class);

        TcpServerExchange plain = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong().withTimeout(GENEROUS)).bind();
        Future<Throwable> atPlain = threads.submit(() -> catchThrowable(() -> plain.exchange(TestInfos.SERVER)));
        Throwable pskClient = catchThrowable(() -> TcpExchange.client("127.0.0.1", plain.localPort(), psk(KEY)).exchange(TestInfos.CLIENT));
        assertThat(pskClient).isInstanceOf(AuthenticationException.Downgrade.class);
        assertThat(atPlain.get()).isInstanceOf(MalformedMessageException.class);
    }

    /** OOB-07 and AUTH-02: versions 0, 2 (= ours + 1, and ours − 1) and 0xFFFF are refused naming both versions. */
    @Test
    void oob07AnotherVersionIsRefusedNamingBoth() throws Exception {
        for (int version : new int[] {0, 2, 0xFFFF}) {
            byte[] hello = PskHandshake.hello(Handshake.Role.CLIENT, PskHandshake.keyId(KEY), bytes(version, 32));
            hello[8] = (byte) (version >> 8);
            hello[9] = (byte) version;
            Throwable t = rawClient(hello);
            assertThat(t).isInstanceOf(VersionMismatchException.class)
                    .hasMessageContaining("version " + version).hasMessageContaining("we speak version 1");
            assertThat(((VersionMismatchException) t).theirs()).isEqualTo(version);
        }
    }

    /** OOB-06 at the PSK port: HTTP, a TLS ClientHello, rc_pingpong text are refused at their first byte, not at the deadline. */
    @Test
    void oob06ForeignProtocolsAreRefusedAtOnce() throws Exception {
        byte[][] foreign = {
            "GET /metrics HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            {0x16, 0x03, 0x01, 0x00, (byte) 0xC8, 0x01},
            PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT),
        };
        for (byte[] bytes : foreign) {
            long t0 = System.nanoTime();
            assertThat(rawClient(bytes)).isInstanceOf(AuthenticationException.Downgrade.class);
            System.out.printf("OOB-06 psk: refused %d foreign bytes in %.1f ms%n", bytes.length, (System.nanoTime() - t0) / 1e6);
        }
    }

    /** A hello reflected back to the server it came from (the attacker has no key) is refused by its role and nonce. */
    @Test
    void aReflectedHelloIsRefused() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
        try (Socket attacker = new Socket()) {
            attacker.connect(new InetSocketAddress(LOOPBACK, server.localPort()));
            byte[] hello = attacker.getInputStream().readNBytes(PskHandshake.HELLO_BYTES);
            attacker.getOutputStream().write(hello);
            assertThat(atServer.get()).isInstanceOf(MalformedMessageException.class).hasMessageContaining("role");
        }
    }

    /** The proof is compared in constant time, and a handshake's cost is measured (AUTH-01 metrics). */
    @Test
    void auth01HandshakeCostIsMeasured() throws Exception {
        int runs = 20;
        long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, binaryPsk()).bind();
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
            TcpExchange.client("127.0.0.1", server.localPort(), binaryPsk()).exchange(TestInfos.CLIENT);
            atServer.get();
        }
        System.out.printf("AUTH-01: %.2f ms per PSK exchange on loopback (mean of %d, both sides in one JVM)%n",
                (System.nanoTime() - t0) / 1e6 / runs, runs);
    }

    /** OOB-17 for the hello parser: random and mutated hellos only ever fail typed. */
    @Test
    void oob17MutatedHellosOnlyFailTyped() {
        SplittableRandom random = new SplittableRandom(0x0017);
        byte[] ours = PskHandshake.hello(Handshake.Role.SERVER, PskHandshake.keyId(KEY), bytes(9, 32));
        byte[] good = PskHandshake.hello(Handshake.Role.CLIENT, PskHandshake.keyId(KEY), bytes(7, 32));
        int inputs = 20_000;
        long slowest = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < inputs; i++) {
            long start = System.nanoTime();
            byte[] h = good.clone();
            if (i % 4 == 0) {
                random.nextBytes(h);
            } else {
                for (int k = 1 + random.nextInt(3); k > 0; k--) {
                    h[random.nextInt(h.length)] = (byte) random.nextInt(256);
                }
            }
            try {
                PskHandshake.checkHello(h, Handshake.Role.SERVER, ours);
            } catch (BootstrapException expected) {
                // typed: fine
            }
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        System.out.printf("OOB-17: %d hellos in %.0f ms, slowest %.1f µs (each parse is fixed-size: 56 bytes, no allocation from input)%n",
                inputs, (System.nanoTime() - t0) / 1e6, slowest / 1e3);
    }

    /** Connects a raw client that sends {@code bytes}; returns the PSK server's error. */
    private Throwable rawClient(byte[] bytes) throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, psk(KEY)).bind();
        Future<Throwable> atServer = threads.submit(() -> catchThrowable(() -> server.exchange(TestInfos.SERVER)));
        try (Socket peer = new Socket()) {
            peer.connect(new InetSocketAddress(LOOPBACK, server.localPort()));
            OutputStream out = peer.getOutputStream();
            out.write(bytes);
            out.flush();
            Throwable t = atServer.get();
            InputStream in = peer.getInputStream();
            try {
                // At most the server's hello came back, never a proof or its info.
                assertThat(in.readNBytes(PskHandshake.HELLO_BYTES + 1)).hasSizeLessThanOrEqualTo(PskHandshake.HELLO_BYTES);
            } catch (IOException reset) {
                // closed with our bytes unread: a reset, which is a refusal too
            }
            return t;
        }
    }

    private static void assertNotIn(byte[] haystack, byte[] needle, String what) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            throw new AssertionError(what + " (" + HexFormat.of().formatHex(needle) + ") is on the wire at byte " + i);
        }
    }

    /** OOB-16: an authentication error names no key and no connection info. */
    static void assertNoKeyOrInfoIn(String message) {
        for (PreSharedKey k : List.of(KEY, OTHER_KEY)) {
            assertThat(message).doesNotContain(HexFormat.of().formatHex(k.bytes())).doesNotContain(new String(k.bytes(), StandardCharsets.ISO_8859_1));
        }
        for (ConnInfo info : List.of(TestInfos.CLIENT, TestInfos.SERVER)) {
            assertThat(message).doesNotContainIgnoringCase(String.format("%06x", info.qpn())).doesNotContainIgnoringCase(String.format("%06x", info.psn()));
        }
    }

    static byte[] bytes(int seed, int n) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }
}
