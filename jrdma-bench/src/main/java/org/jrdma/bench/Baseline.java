package org.jrdma.bench;

import java.util.List;
import org.jrdma.bench.baseline.MappedPingPong;
import org.jrdma.bench.baseline.SegmentCopy;
import org.jrdma.bench.baseline.TcpPingPong;
import org.jrdma.bench.baseline.TcpStream;
import org.jrdma.bench.baseline.UdpPingPong;

/**
 * What jrdma is compared with: the plain Java programs, each run as a server and a client
 * process (but {@link #SEGMENT_COPY}, one process), or ({@link #JRDMA}) jrdma's own plain run of
 * the same test and size, for the variants measured against it (-q 16 against -q 1, one busy QP
 * beside idle ones against it alone).
 */
public enum Baseline {
    TCP_STREAM("TCP streaming", Kind.BANDWIDTH, TcpStream.class, List.of()),
    UDP_PINGPONG("UDP ping-pong", Kind.LATENCY, UdpPingPong.class, List.of()),
    TCP_PINGPONG("TCP ping-pong", Kind.LATENCY, TcpPingPong.class, List.of()),
    /** Blocking channels (a thread sleeps in the kernel for each datagram): the peer of perf's -e. */
    UDP_BLOCKING_PINGPONG("blocking UDP ping-pong", Kind.LATENCY, UdpPingPong.class, List.of("--blocking", "true")),
    /**
     * {@code MemorySegment.copy} of the message size between two off-heap segments, one process:
     * the floor of a WRITE on the shared-memory provider, which is that copy into the peer's memory.
     */
    SEGMENT_COPY("MemorySegment.copy", Kind.BANDWIDTH, SegmentCopy.class, List.of()),
    /** Two processes ping-ponging through a shared memory-mapped file, busy polling: the same-host twin of shm latency. */
    MAPPED_PINGPONG("mapped-file ping-pong", Kind.LATENCY, MappedPingPong.class, List.of()),
    /** jrdma perf's plain run of the shape's test and size ({@link Shape#reference}), by the jrdma side. */
    JRDMA("jrdma", null, null, List.of());

    private final String label;
    private final Kind kind;
    private final Class<?> mainClass;
    private final List<String> args;

    Baseline(String label, Kind kind, Class<?> mainClass, List<String> args) {
        this.label = label;
        this.kind = kind;
        this.mainClass = mainClass;
        this.args = args;
    }

    public String label() {
        return label;
    }

    /** Bandwidth or latency; null for {@link #JRDMA}, which has its shape's. */
    public Kind kind() {
        return kind;
    }

    /** The program of a Java NIO baseline; null for {@link #JRDMA}. */
    public Class<?> mainClass() {
        return mainClass;
    }

    /** Arguments both roles of the program get besides size and run length. */
    public List<String> args() {
        return args;
    }

    public boolean isJava() {
        return this != JRDMA;
    }

    /** One process with the {@link SegmentCopy#ROLE} role, no server and client. */
    public boolean singleProcess() {
        return this == SEGMENT_COPY;
    }

    /** The JSON key of the figure in the measuring process's line: receiver MiB/s, or half-RTT p50. */
    String figureKey() {
        return kind == Kind.BANDWIDTH ? "mibPerSec" : "halfRttP50Us";
    }

    /** The role whose line holds the figure: the stream's receiver (server), the ping-pong's client (a single process: its own). */
    boolean figureFromServer() {
        return kind == Kind.BANDWIDTH;
    }
}
