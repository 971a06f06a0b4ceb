package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.InvalidFieldException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's host with a port in it ({@code 127.0.0.1:18515}) is refused saying so — once, in
 * MessageChannel.connectTo, which jrdma pingpong and perf both connect through — and every
 * host form without one still works.
 */
class HostNameTest {
    private static final Duration SHORT = Duration.ofSeconds(5);

    private static MessageChannel connectTo(String host, int port) {
        return MessageChannel.connectTo(host, port, SHORT, ExchangeListener.NONE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "127.0.0.1:18515 | -p 18515 127.0.0.1",
            "[::1]:18515     | -p 18515 ::1",
            "server:7000     | -p 7000 server",
            "localhost:0     | -p 0 localhost"})
    void aHostWithAPortIsRefusedNamingWhereThePortGoes(String host, String advice) {
        String expected = "host: \"" + host + "\" carries a port: give the host alone and the port apart (the tools' " + advice + ")";
        assertThatThrownBy(() -> connectTo(host, 18515)).isInstanceOf(InvalidFieldException.class)
                .hasMessage(expected);
        assertThatThrownBy(() -> TcpExchange.client(host, 18515, TcpOptions.rcPingpong())).as("at once, before any device")
                .isInstanceOf(InvalidFieldException.class).hasMessage(expected);
    }

    /** Found in issue 12's pass: the JDK resolves "" to the loopback address, so "jrdma pingpong ''" connected there. */
    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t"})
    void anEmptyHostIsRefused(String host) {
        assertThatThrownBy(() -> TcpExchange.client(host, 18515, TcpOptions.rcPingpong())).isInstanceOf(InvalidFieldException.class)
                .hasMessage("host: is empty: give the server's name or address");
        assertThatThrownBy(() -> connectTo(host, 18515)).hasMessage("host: is empty: give the server's name or address");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1", "[::1]", "localhost", "0:0:0:0:0:0:0:1"})
    void everyHostFormWithoutAPortConnects(String host) throws Exception {
        InetAddress bind = host.contains(":") ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
        try (ServerSocket listener = new ServerSocket(0, 1, host.equals("localhost") ? null : bind);
             MessageChannel c = connectTo(host, listener.getLocalPort())) {
            assertThat(c.peerAddress()).contains(String.valueOf(listener.getLocalPort()));
        }
    }

    @Test
    void anIpv6AddressWithAPortGluedOnGetsAHint() {
        assertThatThrownBy(() -> connectTo("::1:18515", 18515)).isInstanceOf(ExchangeIoException.class)
                .hasMessageStartingWith("resolve ::1:18515 (an IPv6 address is written bare, ::1, or in brackets, [::1];"
                        + " a port goes apart, in -p): ");
    }

    /** Messages write an address as inet_ntop does and an IPv6 one in brackets before its port, never as Java's toString. */
    @Test
    void addressesAreWrittenAsPeopleWriteThem() throws Exception {
        InetAddress v6 = InetAddress.getByName("0:0:0:0:0:0:0:1");
        assertThat(HostName.text(v6)).isEqualTo("::1");
        assertThat(HostName.withPort(v6, 21004)).isEqualTo("[::1]:21004");
        assertThat(HostName.withPort(new InetSocketAddress(InetAddress.getByName("fd00:0:0:0:0:0:0:77"), 7))).isEqualTo("[fd00::77]:7");
        assertThat(HostName.withPort(InetAddress.getByName("127.0.0.1"), 18515)).isEqualTo("127.0.0.1:18515");
        assertThat(HostName.withPort("::1", 21004)).isEqualTo("[::1]:21004");
        assertThat(HostName.withPort("[::1]", 21004)).isEqualTo("[::1]:21004");
        assertThat(HostName.withPort("server", 21004)).isEqualTo("server:21004");
        assertThat(HostName.withPort(InetSocketAddress.createUnresolved("server", 7))).isEqualTo("server:7");
    }

    /**
     * A connect that times out names where it went as people write it; it said Java's
     * "/[0:0:0:0:0:0:0:1]:21004". The listener never accepts and its backlog is full, so the
     * kernel drops further SYNs and the connect waits out its deadline.
     */
    @Test
    void aConnectThatTimesOutNamesTheIpv6AddressInBrackets() throws Exception {
        InetAddress v6 = InetAddress.getByName("::1");
        try (ServerSocket listener = new ServerSocket(0, 1, v6)) {
            List<Socket> queued = new ArrayList<>();
            try {
                while (queued.size() < 16) { // until the accept queue is full
                    Socket s = new Socket();
                    queued.add(s);
                    try {
                        s.connect(new InetSocketAddress(v6, listener.getLocalPort()), 300);
                    } catch (SocketTimeoutException full) {
                        break;
                    }
                }
                int port = listener.getLocalPort();
                assertThatThrownBy(() -> MessageChannel.connectTo("::1", port, Duration.ofMillis(300), ExchangeListener.NONE))
                        .isInstanceOf(ExchangeTimeoutException.class)
                        .hasMessage("connect: deadline of 300 ms passed to [::1]:" + port);
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }
}
