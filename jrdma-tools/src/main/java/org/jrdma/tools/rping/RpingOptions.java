package org.jrdma.tools.rping;

import java.net.InetAddress;
import java.time.Duration;

/** rping's settings after parsing: what {@code -s/-c -a -p -C -S -v -V -d -P} asked for. */
record RpingOptions(boolean server, InetAddress address, int port, long count, int size, boolean verbose,
        boolean validate, boolean debug, boolean persistent, Duration timeout) {

    /** How long a server waits for a client (rping waits forever; ^C ends it). */
    Duration connectWait() {
        return Duration.ofDays(365);
    }
}
