package org.jrdma.bootstrap.tcp;

import org.jrdma.bootstrap.InvalidFieldException;

/**
 * The host a TCP client is given — a name, an IPv4 address, or an IPv6 address bare or in
 * brackets — refused early when it carries a port ({@code 127.0.0.1:18515}, {@code [::1]:18515},
 * {@code server:18515}): the JDK would call the first an invalid IPv6 literal, and rc_pingpong's
 * getaddrinfo an unknown name. The port is given apart (the tools' {@code -p}), as in rdma-core
 * and perftest, so a second place for it is not added.
 */
final class HostName {
    private HostName() {
    }

    /** Returns {@code host} if it is one, else throws naming what is wrong (empty, or a port in it). */
    static String check(String host) {
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

    /** What to add to a failed resolution of {@code host}: an IPv6 address with a port is written in brackets. */
    static String hint(String host) {
        return host.indexOf(':') != host.lastIndexOf(':') && !host.startsWith("[")
                ? " (an IPv6 address is written bare, ::1, or in brackets, [::1]; a port goes apart, in -p)"
                : "";
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
