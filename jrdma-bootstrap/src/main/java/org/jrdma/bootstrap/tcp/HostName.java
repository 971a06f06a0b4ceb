package org.jrdma.bootstrap.tcp;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.verbs.Gid;

/**
 * Hosts as a client is given them and as messages write them. Read: a name, an IPv4 address,
 * or an IPv6 address bare or in brackets — refused early when it carries a port
 * ({@code 127.0.0.1:18515}, {@code [::1]:18515}, {@code server:18515}): the JDK would call the
 * first an invalid IPv6 literal, and rc_pingpong's getaddrinfo an unknown name. The port is given
 * apart (the tools' {@code -p}), as in rdma-core and perftest, so a second place for it is not
 * added. Written: an address as inet_ntop prints it ({@code ::1}, not Java's
 * {@code 0:0:0:0:0:0:0:1}) and with a port as people write it ({@code [::1]:18515}, not Java's
 * {@code /[0:0:0:0:0:0:0:1]:18515}). Public for jrdma-tools, whose rdma_cm clients (perf -R,
 * rping) read and write hosts the same way.
 */
public final class HostName {
    private HostName() {
    }

    /**
     * Returns {@code host} if it is one, else throws naming what is wrong (empty, or a port in it).
     *
     * @param host a name or an IPv4 or IPv6 address, without a port
     * @return {@code host}
     * @throws org.jrdma.bootstrap.InvalidFieldException (field {@code host}) if it is blank or
     *     carries a port
     */
    public static String check(String host) {
        if (host.isBlank()) {
            // the JDK would take "" for the loopback address and connect there
            throw new InvalidFieldException("host", "is empty: give the server's name or address");
        }
        String port = portIn(host);
        if (port != null) {
            String bare = host.startsWith("[") ? host.substring(1, host.indexOf(']')) : host.substring(0, host.indexOf(':'));
            throw new InvalidFieldException("host", "\"" + host + "\" carries a port: give the host alone and the port apart"
                    + " (the tools' -p " + port + " " + bare + ")");
        }
        return host;
    }

    /**
     * {@link #check}s {@code host}, then returns its addresses in the resolver's order (a literal
     * address never waits: name resolution has no deadline of its own in the JDK).
     *
     * @param host a name or an IPv4 or IPv6 address, without a port
     * @return its addresses, at least one
     * @throws org.jrdma.bootstrap.ExchangeIoException if the name does not resolve
     */
    public static InetAddress[] resolve(String host) {
        try {
            return InetAddress.getAllByName(check(host));
        } catch (UnknownHostException e) {
            throw new ExchangeIoException("resolve " + host + hint(host), e);
        }
    }

    /** What to add to a failed resolution of {@code host}: an IPv6 address with a port is written in brackets. */
    static String hint(String host) {
        return host.indexOf(':') != host.lastIndexOf(':') && !host.startsWith("[")
                ? " (an IPv6 address is written bare, ::1, or in brackets, [::1]; a port goes apart, in -p)"
                : "";
    }

    /**
     * An address as inet_ntop prints it: {@code 127.0.0.1}, {@code ::1}, {@code fd00::77}.
     *
     * @param address the address
     * @return its text
     */
    public static String text(InetAddress address) {
        return address instanceof Inet6Address ? Gid.of(address).toString() : address.getHostAddress();
    }

    /**
     * {@code 127.0.0.1:18515} or {@code [::1]:18515}, for messages.
     *
     * @param address the address
     * @param port the TCP port
     * @return the text
     */
    public static String withPort(InetAddress address, int port) {
        return address instanceof Inet6Address ? "[" + text(address) + "]:" + port : text(address) + ":" + port;
    }

    /**
     * {@link #withPort(InetAddress, int)} of a socket address; an unresolved one as it was given.
     *
     * @param address the socket address
     * @return the text
     */
    public static String withPort(InetSocketAddress address) {
        return address.getAddress() == null ? withPort(address.getHostString(), address.getPort())
                : withPort(address.getAddress(), address.getPort());
    }

    /**
     * {@code host:port} of a host as the user gave it, an IPv6 literal in brackets.
     *
     * @param host the host as given
     * @param port the TCP port
     * @return the text
     */
    public static String withPort(String host, int port) {
        return (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
    }

    /** The port after the host ({@code [v6]:port}, or {@code name:port} with a single colon), or null. */
    private static String portIn(String host) {
        String tail;
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            if (close < 0 || close == host.length() - 1 || host.charAt(close + 1) != ':') {
                return null;
            }
            tail = host.substring(close + 2);
        } else {
            int colon = host.indexOf(':');
            if (colon < 0 || colon != host.lastIndexOf(':')) {
                return null; // no colon, or an IPv6 address
            }
            tail = host.substring(colon + 1);
        }
        return !tail.isEmpty() && tail.chars().allMatch(c -> c >= '0' && c <= '9') ? tail : null;
    }
}
