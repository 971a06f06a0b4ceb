package org.jrdma.bootstrap.tcp;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PeerClosedException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.RecordingListener;
import org.jrdma.bootstrap.SeedBinaryCodec;
import org.jrdma.bootstrap.TestInfos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Real sockets on loopback, ephemeral ports only; fake peers are raw java.net sockets. */
@Timeout(30)
class TcpExchangeTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration GENEROUS = Duration.ofSeconds(10);
    private static final byte[] CLIENT_MSG = PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT);
    private static final byte[] SERVER_MSG = PingpongTextCodec.INSTANCE.encode(TestInfos.SERVER);
    private static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopThreads() {
        ticker.shutdownNow();
        threads.shutdownNow();
    }

    @Test
    void textExchangeOverLoopbackGivesEachSideTheOthersInfo() throws Exception {
        RecordingListener serverEvents = new RecordingListener();
        RecordingListener clientEvents = new RecordingListener();
        try (TcpServerExchange server = TcpExchange.server(0, TcpOptions.rcPingpong()).bind()) {
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER, serverEvents));
            // "localhost" may resolve to ::1 and 127.0.0.1: the client tries each in turn.
            ConnInfo atClient = TcpExchange.client("localhost", server.localPort(), TcpOptions.rcPingpong())
                    .exchange(TestInfos.CLIENT, clientEvents);

            assertThat(atClient).isEqualTo(TestInfos.SERVER);
            assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
        }
        assertThat(clientEvents.phases()).containsExactly(Phase.CONNECTED, Phase.SENT, Phase.RECEIVED, Phase.CLOSED);
        assertThat(serverEvents.phases()).containsExactly(Phase.LISTENING, Phase.CONNECTED, Phase.SENT, Phase.RECEIVED, Phase.CLOSED);
        assertInTimeOrder(clientEvents.events());
        assertInTimeOrder(serverEvents.events());
    }

    @Test
    void binaryExchangeOverLoopback() throws Exception {
        TcpOptions binary = TcpOptions.seedBinary().withTimeout(GENEROUS);
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, binary).bind()) {
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
            assertThat(TcpExchange.client(LOOPBACK.getHostAddress(), server.localPort(), binary).exchange(TestInfos.CLIENT))
                    .isEqualTo(TestInfos.SERVER);
            assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
        }
    }

    /** OOB-05: one peer per server; every later connect is refused by the kernel, so nothing is allocated per extra caller. */
    @Test
    void serverClosesItsListeningSocketOnceItHasItsOnePeer() throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong()).bind();
             Socket silentPeer = new Socket()) {
            int port = server.localPort();
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER, e -> {
                if (e.phase() == Phase.CONNECTED) {
                    connected.countDown();
                }
            }));
            silentPeer.connect(new InetSocketAddress(LOOPBACK, port));
            assertThat(connected.await(10, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> new Socket(LOOPBACK, port).close()).isInstanceOf(ConnectException.class);
            silentPeer.close();
            assertThatThrownBy(() -> atServer.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(PeerClosedException.class);
        }
    }

    @Test
    void interopWithAnRcPingpongServerThatReadsFirstThenWrites() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, LOOPBACK)) {
            Future<byte[][]> fakeServer = threads.submit(() -> {
                try (Socket s = listener.accept()) {
                    s.setSoTimeout(10_000);
                    InputStream in = s.getInputStream();
                    byte[] fromClient = new byte[52];
                    // rc_pingpong does one read() and needs all 52 bytes from it.
                    int n = in.read(fromClient);
                    s.getOutputStream().write(SERVER_MSG);
                    byte[] done = new byte[5];
                    int m = in.readNBytes(done, 0, 5);
                    int after = in.read(); // -1 once the client has closed
                    return new byte[][] {fromClient, {(byte) n, (byte) m, (byte) after}, done};
                }
            });
            RecordingListener events = new RecordingListener();
            ConnInfo peer = TcpExchange.client(LOOPBACK.getHostAddress(), listener.getLocalPort(), TcpOptions.rcPingpong())
                    .exchange(TestInfos.CLIENT, events);

            assertThat(peer).isEqualTo(TestInfos.SERVER);
            byte[][] seen = fakeServer.get(10, TimeUnit.SECONDS);
            assertThat(seen[0]).isEqualTo(CLIENT_MSG);
            assertThat(seen[1]).containsExactly(52, 5, -1);
            assertThat(seen[2]).isEqualTo(DONE);
            assertThat(events.last().phase()).isEqualTo(Phase.CLOSED);
        }
    }

    @Test
    void interopWithAnRcPingpongClientThatWritesFirst() throws Exception {
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong()).bind()) {
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
            try (Socket s = new Socket(LOOPBACK, server.localPort())) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(CLIENT_MSG);
                byte[] fromServer = new byte[52];
                assertThat(s.getInputStream().read(fromServer)).isEqualTo(52);
                assertThat(fromServer).isEqualTo(SERVER_MSG);
                s.getOutputStream().write(DONE);
                assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
                assertThat(s.getInputStream().read()).as("server closed its socket").isEqualTo(-1);
            }
        }
    }

    @Test
    void serverRefusesAnythingButDoneAsTheTerminator() throws Exception {
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong()).bind()) {
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER));
            try (Socket s = new Socket(LOOPBACK, server.localPort())) {
                s.getOutputStream().write(CLIENT_MSG);
                s.getInputStream().readNBytes(52);
                s.getOutputStream().write("DONE\0".getBytes(US_ASCII));
                assertThatThrownBy(() -> atServer.get(10, TimeUnit.SECONDS))
                        .cause().isInstanceOfSatisfying(MalformedMessageException.class,
                                e -> assertThat(e.field()).isEqualTo("terminator"));
            }
        }
    }

    /** OOB-01: EOF mid-message is a typed error naming how many bytes came. */
    @Test
    void peerThatSends10BytesThenClosesIsAnUnexpectedEof() throws Exception {
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong()).bind()) {
            RecordingListener events = new RecordingListener();
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER, events));
            try (Socket s = new Socket(LOOPBACK, server.localPort())) {
                s.getInputStream().readNBytes(52); // take the server's message so our close is a FIN, not a RST
                s.getOutputStream().write(CLIENT_MSG, 0, 10);
            }
            assertThatThrownBy(() -> atServer.get(10, TimeUnit.SECONDS))
                    .cause().isInstanceOf(PeerClosedException.class)
                    .hasMessageContaining("unexpected EOF after 10 of 52 bytes")
                    .satisfies(e -> assertThat(((PeerClosedException) e).receivedBytes()).isEqualTo(10));
            assertThat(events.phases()).doesNotContain(Phase.RECEIVED).endsWith(Phase.CLOSED);
        }
    }

    /** OOB-01 on the client side. */
    @Test
    void clientSeesAnUnexpectedEofToo() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, LOOPBACK)) {
            threads.submit(() -> {
                try (Socket s = listener.accept()) {
                    s.getInputStream().readNBytes(52);
                    s.getOutputStream().write(SERVER_MSG, 0, 10);
                }
                return null;
            });
            assertThatThrownBy(() -> TcpExchange.client(LOOPBACK.getHostAddress(), listener.getLocalPort(),
                    TcpOptions.rcPingpong()).exchange(TestInfos.CLIENT))
                    .isInstanceOf(PeerClosedException.class)
                    .hasMessageContaining("after 10 of 52 bytes");
        }
    }

    /** OOB-03: a silent peer is cut off at the deadline and the socket closed. */
    @Test
    void silentPeerTimesOutAtTheDeadlineAndTheSocketIsClosed() throws Exception {
        Duration deadline = Duration.ofMillis(300);
        try (ServerSocket listener = new ServerSocket(0, 1, LOOPBACK)) {
            Future<Integer> silentServer = threads.submit(() -> {
                try (Socket s = listener.accept()) {
                    s.setSoTimeout(10_000);
                    s.getInputStream().readNBytes(52);
                    return s.getInputStream().read(); // -1 when the client gives up and closes
                }
            });
            RecordingListener events = new RecordingListener();
            long start = System.nanoTime();
            assertThatThrownBy(() -> TcpExchange.client(LOOPBACK.getHostAddress(), listener.getLocalPort(),
                    TcpOptions.rcPingpong().withTimeout(deadline)).exchange(TestInfos.CLIENT, events))
                    .isInstanceOfSatisfying(ExchangeTimeoutException.class, e -> {
                        assertThat(e.step()).isEqualTo(ExchangeStep.READ);
                        assertThat(e.timeout()).isEqualTo(deadline);
                    })
                    .hasMessageContaining("after 0 of 52 bytes");
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(elapsedMillis).isBetween(300L, 5_000L);
            assertThat(events.last().phase()).isEqualTo(Phase.CLOSED);
            assertThat(silentServer.get(10, TimeUnit.SECONDS)).isEqualTo(-1);
        }
    }

    /** OOB-04: the deadline is absolute, not restarted by each byte. */
    @Test
    void slowlorisPeerIsCutOffAtTheAbsoluteDeadline() throws Exception {
        Duration deadline = Duration.ofMillis(500);
        try (ServerSocket listener = new ServerSocket(0, 1, LOOPBACK)) {
            AtomicInteger sent = new AtomicInteger();
            threads.submit(() -> {
                Socket s = listener.accept();
                s.getInputStream().readNBytes(52);
                // One valid byte every 100 ms: every read makes progress, none completes the message.
                ticker.scheduleAtFixedRate(() -> {
                    try {
                        s.getOutputStream().write(SERVER_MSG[sent.get()]);
                        sent.incrementAndGet();
                    } catch (IOException closedByClient) {
                        throw new IllegalStateException(closedByClient);
                    }
                }, 0, 100, TimeUnit.MILLISECONDS);
                return null;
            });
            long start = System.nanoTime();
            assertThatThrownBy(() -> TcpExchange.client(LOOPBACK.getHostAddress(), listener.getLocalPort(),
                    TcpOptions.rcPingpong().withTimeout(deadline)).exchange(TestInfos.CLIENT))
                    .isInstanceOfSatisfying(ExchangeTimeoutException.class,
                            e -> assertThat(e.step()).isEqualTo(ExchangeStep.READ))
                    .hasMessageNotContaining("after 0 of");
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            // A deadline restarted by each byte would run 52 × 100 ms.
            assertThat(elapsedMillis).isBetween(500L, 3_000L);
            assertThat(sent.get()).isBetween(1, 40);
        }
    }

    /** OOB-06: an HTTP request is refused at its first byte, not at the deadline. */
    @Test
    void anHttpRequestIsRefusedAsSoonAsItArrives() throws Exception {
        try (TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.rcPingpong().withTimeout(GENEROUS)).bind()) {
            RecordingListener events = new RecordingListener();
            Future<ConnInfo> atServer = threads.submit(() -> server.exchange(TestInfos.SERVER, events));
            try (Socket browser = new Socket(LOOPBACK, server.localPort())) {
                browser.setSoTimeout(10_000);
                long start = System.nanoTime();
                // Shorter than 52 bytes, and the connection stays open: only an early check catches it.
                browser.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(US_ASCII));
                assertThatThrownBy(() -> atServer.get(10, TimeUnit.SECONDS))
                        .cause().isInstanceOfSatisfying(MalformedMessageException.class,
                                e -> assertThat(e.field()).isEqualTo("lid"))
                        .hasMessageContaining("'G' at offset 0");
                assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(GENEROUS.toMillis() / 2);
                assertThat(events.phases()).containsExactly(Phase.LISTENING, Phase.CONNECTED, Phase.SENT, Phase.CLOSED);
                assertClosedByPeer(browser);
            }
        }
    }

    /** OOB-03: nobody comes: the accept deadline passes and the port is released. */
    @Test
    void acceptTimesOutAndReleasesThePort() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0,
                TcpOptions.rcPingpong().withAcceptTimeout(Duration.ofMillis(200))).bind();
        int port = server.localPort();
        RecordingListener events = new RecordingListener();
        assertThatThrownBy(() -> server.exchange(TestInfos.SERVER, events))
                .isInstanceOfSatisfying(ExchangeTimeoutException.class, e -> assertThat(e.step()).isEqualTo(ExchangeStep.ACCEPT));
        assertThat(events.phases()).containsExactly(Phase.LISTENING, Phase.CLOSED);
        assertThatThrownBy(() -> new Socket(LOOPBACK, port).close()).isInstanceOf(ConnectException.class);
    }

    @Test
    void connectionRefusedIsAnIoErrorNamingTheTarget() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        RecordingListener events = new RecordingListener();
        // Refusals are retried until the connect deadline (the server may start later); then it fails.
        assertThatThrownBy(() -> TcpExchange.client(LOOPBACK.getHostAddress(), port,
                        TcpOptions.rcPingpong().withIoTimeout(Duration.ofMillis(300)))
                .exchange(TestInfos.CLIENT, events))
                .isInstanceOf(ExchangeIoException.class)
                .hasMessageContaining("connect to " + LOOPBACK.getHostAddress() + ":" + port);
        assertThat(events.phases()).containsExactly(Phase.RETRYING, Phase.CLOSED); // it said once that it retried
    }

    /** Two processes started together: the client may dial before the server listens. */
    @Test
    void aClientThatDialsBeforeTheServerListensConnectsOnceItDoes() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            port = probe.getLocalPort();
        }
        java.util.concurrent.atomic.AtomicReference<Thread> clientThread = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.Future<ConnInfo> client = threads.submit(() -> {
            clientThread.set(Thread.currentThread());
            return TcpExchange.client(LOOPBACK.getHostAddress(), port, TcpOptions.rcPingpong().withIoTimeout(Duration.ofSeconds(20)))
                    .exchange(TestInfos.CLIENT);
        });
        // The client parks between attempts only after a refusal: wait for that, then listen.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (clientThread.get() == null || clientThread.get().getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime()).as("the client was refused once").isLessThan(deadline);
            Thread.onSpinWait();
        }
        TcpServerExchange server = TcpExchange.server(LOOPBACK, port, TcpOptions.rcPingpong()).bind();
        assertThat(server.exchange(TestInfos.SERVER)).isEqualTo(TestInfos.CLIENT);
        assertThat(client.get(20, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(TestInfos.SERVER);
    }

    @Test
    void aServerIsGoodForOneExchange() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0,
                TcpOptions.rcPingpong().withAcceptTimeout(Duration.ofMillis(50))).bind();
        assertThatThrownBy(() -> server.exchange(TestInfos.SERVER)).isInstanceOf(ExchangeTimeoutException.class);
        assertThatThrownBy(() -> server.exchange(TestInfos.SERVER)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theCodecDecidesTheBytesOnTheWire() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, LOOPBACK)) {
            Future<byte[]> fake = threads.submit(() -> {
                try (Socket s = listener.accept()) {
                    byte[] got = s.getInputStream().readNBytes(28);
                    s.getOutputStream().write(SeedBinaryCodec.INSTANCE.encode(TestInfos.SERVER));
                    return got;
                }
            });
            TcpExchange.client(LOOPBACK.getHostAddress(), listener.getLocalPort(), TcpOptions.seedBinary())
                    .exchange(TestInfos.CLIENT);
            assertThat(fake.get(10, TimeUnit.SECONDS)).isEqualTo(SeedBinaryCodec.INSTANCE.encode(TestInfos.CLIENT));
        }
    }

    private static void assertInTimeOrder(List<ExchangeEvent> events) {
        for (int i = 1; i < events.size(); i++) {
            assertThat(events.get(i).nanoTime() - events.get(i - 1).nanoTime()).isNotNegative();
        }
    }

    /** EOF, or a reset when the closing side still had our unread bytes: either way it is closed. */
    private static void assertClosedByPeer(Socket s) throws IOException {
        try {
            InputStream in = s.getInputStream();
            while (in.read() >= 0) {
                // drain what the peer wrote before closing
            }
        } catch (SocketException reset) {
            assertThat(reset.getMessage()).containsIgnoringCase("reset");
        }
    }
}
