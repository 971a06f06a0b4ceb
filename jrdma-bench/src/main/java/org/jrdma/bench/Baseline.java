package org.jrdma.bench;

import org.jrdma.bench.baseline.TcpPingPong;
import org.jrdma.bench.baseline.TcpStream;
import org.jrdma.bench.baseline.UdpPingPong;

/** The plain Java NIO programs jrdma is compared with; each runs as a server and a client process. */
public enum Baseline {
    TCP_STREAM("TCP streaming", Kind.BANDWIDTH, TcpStream.class),
    UDP_PINGPONG("UDP ping-pong", Kind.LATENCY, UdpPingPong.class),
    TCP_PINGPONG("TCP ping-pong", Kind.LATENCY, TcpPingPong.class);

    private final String label;
    private final Kind kind;
    private final Class<?> mainClass;

    Baseline(String label, Kind kind, Class<?> mainClass) {
        this.label = label;
        this.kind = kind;
        this.mainClass = mainClass;
    }

    public String label() {
        return label;
    }

    public Kind kind() {
        return kind;
    }

    public Class<?> mainClass() {
        return mainClass;
    }

    /** The JSON key of the figure in the measuring process's line: receiver MiB/s, or half-RTT p50. */
    String figureKey() {
        return kind == Kind.BANDWIDTH ? "mibPerSec" : "halfRttP50Us";
    }

    /** The role whose line holds the figure: the stream's receiver (server), the ping-pong's client. */
    boolean figureFromServer() {
        return kind == Kind.BANDWIDTH;
    }
}
