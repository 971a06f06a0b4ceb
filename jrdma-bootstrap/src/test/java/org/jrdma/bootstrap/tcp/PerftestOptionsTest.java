package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.bootstrap.TestInfos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link TcpOptions#perftest()}: both sides' buffers cross the socket, plain and with a pre-shared key; garbage is cut off early. */
@Timeout(60)
class PerftestOptionsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Duration GENEROUS = Duration.ofSeconds(10);
    private static final ConnInfo SERVER = TestInfos.SERVER.withBuffer(new RemoteBuffer(0x7f0000001000L, 0x1234));
    private static final ConnInfo CLIENT = TestInfos.CLIENT.withBuffer(new RemoteBuffer(0xffff_8000_0000_2000L, 0x8765_4321));

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void theKeyMessageCarriesEachSidesBuffer() throws Exception {
        assertThat(TcpOptions.perftest().codec()).isSameAs(PerftestKeyCodec.GID);
        swap(TcpOptions.perftest().withTimeout(GENEROUS));
    }

    @Test
    void soDoesItUnderAPreSharedKey() throws Exception {
        swap(TcpOptions.perftest().withTimeout(GENEROUS).withSecurity(TcpSecurity.psk(PreSharedKey.of(PskExchangeTest.bytes(3, 32)))));
    }

    @Test
    void withCodecChoosesTheOutReadsSent() throws Exception {
        swap(TcpOptions.perftest().withCodec(PerftestKeyCodec.GID.withOutReads(16)).withTimeout(GENEROUS));
    }

    /** Nine bytes and then silence: without checkPrefix the server would wait out its 10 s for 108. */
    @Test
    void aBadByteIsRefusedNamingItsFieldBeforeTheWholeMessageCame() throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, TcpOptions.perftest().withTimeout(GENEROUS)).bind();
        Future<ConnInfo> atServer = threads.submit(() -> server.exchange(SERVER));
        try (Socket peer = new Socket(LOOPBACK, server.localPort())) {
            OutputStream out = peer.getOutputStream();
            out.write("0000:00x1".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThatThrownBy(atServer::get).cause().isInstanceOf(MalformedMessageException.class)
                    .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("out_reads"));
        }
    }

    private void swap(TcpOptions options) throws Exception {
        TcpServerExchange server = TcpExchange.server(LOOPBACK, 0, options).bind();
        Future<ConnInfo> atServer = threads.submit(() -> server.exchange(SERVER));
        assertThat(TcpExchange.client("127.0.0.1", server.localPort(), options).exchange(CLIENT)).isEqualTo(SERVER);
        assertThat(atServer.get()).isEqualTo(CLIENT);
    }
}
