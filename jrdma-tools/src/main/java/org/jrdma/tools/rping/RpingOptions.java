package org.jrdma.tools.rping;

import java.net.InetAddress;
import java.time.Duration;

/**
 * rping's settings after parsing: what {@code -s/-c -a -I -p -C -S -v -V -d -P} asked for, and
 * jrdma's {@code --max-clients} and {@code --timeout-ms}. {@code source} is null unless {@code -I}.
 */
record RpingOptions(boolean server, InetAddress address, InetAddress source, int port, long count, int size,
        boolean verbose, boolean validate, boolean debug, boolean persistent, int maxClients, Duration timeout) {

    /** How long a server waits for a client (rping waits forever; ^C ends it). */
    Duration connectWait() {
        return Duration.ofDays(365);
    }
}
