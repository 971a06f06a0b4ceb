package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.jrdma.bootstrap.ExchangeIoException;
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

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "127.0.0.1:18515 | -p 18515 127.0.0.1",
            "[::1]:18515     | -p 18515 ::1",
            "server:7000     | -p 7000 server",
            "localhost:0     | -p 0 localhost"})
    void aHostWithAPortIsRefusedNamingWhereThePortGoes(String host, String advice) {
        String expected = "host: \"" + host + "\" carries a port: give the host alone and the port apart (the tools' " + advice + ")";
        assertThatThrownBy(() -> MessageChannel.connectTo(host, 18515, SHORT)).isInstanceOf(InvalidFieldException.class)
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
        assertThatThrownBy(() -> MessageChannel.connectTo(host, 18515, SHORT)).hasMessage("host: is empty: give the server's name or address");
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1", "[::1]", "localhost", "0:0:0:0:0:0:0:1"})
    void everyHostFormWithoutAPortConnects(String host) throws Exception {
        InetAddress bind = host.contains(":") ? InetAddress.getByName("::1") : InetAddress.getByName("127.0.0.1");
        try (ServerSocket listener = new ServerSocket(0, 1, host.equals("localhost") ? null : bind);
             MessageChannel c = MessageChannel.connectTo(host, listener.getLocalPort(), SHORT)) {
            assertThat(c.peerAddress()).contains(String.valueOf(listener.getLocalPort()));
        }
    }

    @Test
    void anIpv6AddressWithAPortGluedOnGetsAHint() {
        assertThatThrownBy(() -> MessageChannel.connectTo("::1:18515", 18515, SHORT)).isInstanceOf(ExchangeIoException.class)
                .hasMessageStartingWith("resolve ::1:18515 (an IPv6 address is written bare, ::1, or in brackets, [::1];"
                        + " a port goes apart, in -p): ");
    }
}
