package org.jrdma.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Free TCP ports, and whether a server listens on one yet. A perftest-style client does not
 * retry its connect, so the runner starts it only once the server listens; it looks in
 * /proc/net/tcp (no side effect: a probing connect would take the server's one accept).
 */
final class PortWatch {
    private static final String TCP_LISTEN = "0A";

    private PortWatch() {
    }

    static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static boolean isListening(int port) {
        Path v4 = Path.of("/proc/net/tcp");
        if (!Files.isReadable(v4)) {
            return bindFails(port);
        }
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        for (Path p : List.of(v4, Path.of("/proc/net/tcp6"))) {
            try {
                for (String line : Files.readAllLines(p)) {
                    // sl local_address rem_address st ...: "0: 0100007F:4A3B 00000000:0000 0A ..."
                    String[] f = line.strip().split("\\s+");
                    if (f.length > 3 && f[1].endsWith(hexPort) && f[3].equals(TCP_LISTEN)) {
                        return true;
                    }
                }
            } catch (IOException unreadable) {
                // tcp6 may be missing where IPv6 is off
            }
        }
        return false;
    }

    /** Where /proc is missing: a bind to the port fails while a server listens on it. */
    private static boolean bindFails(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return false;
        } catch (IOException inUse) {
            return true;
        }
    }
}
