package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.bootstrap.ExchangeEvent;
import org.jrdma.bootstrap.ExchangeIoException;
import org.junit.jupiter.api.Test;

/**
 * A client whose server is not listening retries until its deadline (the server may be starting),
 * and says so once, at the first refusal, with where and until when; the final error says how
 * long it tried and where.
 */
class RefusedConnectTest {
    @Test
    void aRefusedConnectSaysOnceThatItRetriesAndUntilWhenThenHowLongItTried() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // free again once closed: nobody listens there
        }
        List<ExchangeEvent> events = new CopyOnWriteArrayList<>();
        Throwable failure = catchThrowable(() -> MessageChannel.connectTo("127.0.0.1", port, Duration.ofMillis(1500), events::add));

        assertThat(failure).isInstanceOf(ExchangeIoException.class)
                .hasMessageMatching("connect to 127\\.0\\.0\\.1:" + port + ": refused \\(tried for 1\\.\\d s; is the server running,"
                        + " on port " + port + "\\?\\): Connection refused");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).phase()).isEqualTo(ExchangeEvent.Phase.RETRYING);
        assertThat(events.get(0).detail()).matches("127\\.0\\.0\\.1:" + port + " refused the connection: no server listens there"
                + " yet; trying again until \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? \\(1\\.5 s\\)");
    }

    @Test
    void theTcpClientExchangeTellsItsListener() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        List<ExchangeEvent> events = new CopyOnWriteArrayList<>();
        TcpClientExchange client = TcpExchange.client("::1", port, TcpOptions.rcPingpong().withTimeout(Duration.ofMillis(800)));
        Throwable failure = catchThrowable(() -> client.exchange(org.jrdma.bootstrap.TestInfos.CLIENT, events::add));
        assertThat(failure).hasMessageStartingWith("connect to [::1]:" + port + ": refused (tried for ");
        assertThat(events).extracting(ExchangeEvent::phase)
                .containsExactly(ExchangeEvent.Phase.RETRYING, ExchangeEvent.Phase.CLOSED);
    }
}
