package org.jrdma.tools.pingpong;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/**
 * The server speaks in rdma-core's order: it reads the client's message, hands it over (the QP
 * is connected there) and only then answers, then reads "done" — checked with a plain socket
 * acting as ibv_*_pingpong's client, with the messages of the lab's rc_pingpong capture.
 */
class PingpongServerExchangeTest {
    private static final ConnInfo CLIENT = new ConnInfo(0, 0x12, 0xe3de62, Gid.of(InetAddress.ofLiteral("10.77.0.3")));
    private static final ConnInfo SERVER = new ConnInfo(0, 0x17, 0xe7692a, Gid.of(InetAddress.ofLiteral("10.77.0.2")));

    @Test
    void answersOnlyAfterTheQpWasConnectedWithTheClientsInfo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        PingpongServerExchange server = new PingpongServerExchange(port, Duration.ofSeconds(20));
        AtomicReference<ConnInfo> handedOver = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<ConnInfo> result = CompletableFuture.supplyAsync(() -> server.exchange(SERVER, ExchangeListener.NONE, peer -> {
            handedOver.set(peer);
            try {
                release.await(20, TimeUnit.SECONDS); // the "QP transitions" take a while
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        Socket client = null;
        for (int i = 0; i < 200 && client == null; i++) { // until the server listens
            try {
                client = new Socket(InetAddress.getLoopbackAddress(), port);
            } catch (java.net.ConnectException e) {
                Thread.sleep(25);
            }
        }
        assertThat(client).as("connected to the server").isNotNull();
        try (Socket c = client) {
            c.setSoTimeout(300);
            OutputStream out = c.getOutputStream();
            InputStream in = c.getInputStream();
            out.write(PingpongTextCodec.INSTANCE.encode(CLIENT));
            boolean early = false;
            try {
                early = in.read() >= 0;
            } catch (SocketTimeoutException expected) {
                // nothing yet: the server waits for its QP before answering
            }
            assertThat(early).as("the server answered before its QP was connected").isFalse();
            assertThat(handedOver.get()).isEqualTo(CLIENT);
            release.countDown();
            c.setSoTimeout(20_000);
            byte[] reply = in.readNBytes(PingpongTextCodec.SIZE);
            assertThat(PingpongTextCodec.INSTANCE.decode(reply)).isEqualTo(SERVER);
            out.write(new byte[] {'d', 'o', 'n', 'e', 0});
            assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo(CLIENT);
        }
    }

    /**
     * A server that picks its device by where the client is accepts before it opens one: the
     * client's message, written at once as rdma-core's client does, waits in the socket, and the
     * client sees the same exchange as ever.
     */
    @Test
    void acceptingFirstKeepsTheWireAndSaysWhereTheClientIs() throws Exception {
        try (PingpongServerExchange server = new PingpongServerExchange(0, Duration.ofSeconds(20))) {
            int port = server.bind();
            try (Socket c = new Socket(InetAddress.getLoopbackAddress(), port)) {
                c.setSoTimeout(20_000);
                c.getOutputStream().write(PingpongTextCodec.INSTANCE.encode(CLIENT));
                InetAddress peer = server.acceptPeer();
                assertThat(peer.isLoopbackAddress()).as("%s", peer).isTrue();
                assertThat(server.acceptedPeer()).isEqualTo(peer);
                AtomicReference<ConnInfo> handedOver = new AtomicReference<>();
                CompletableFuture<ConnInfo> result = CompletableFuture.supplyAsync(
                        () -> server.exchange(SERVER, ExchangeListener.NONE, handedOver::set));
                byte[] reply = c.getInputStream().readNBytes(PingpongTextCodec.SIZE);
                assertThat(PingpongTextCodec.INSTANCE.decode(reply)).isEqualTo(SERVER);
                c.getOutputStream().write(new byte[] {'d', 'o', 'n', 'e', 0});
                assertThat(result.get(20, TimeUnit.SECONDS)).isEqualTo(CLIENT);
                assertThat(handedOver.get()).isEqualTo(CLIENT);
            }
        }
    }
}
