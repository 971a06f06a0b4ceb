package org.jrdma.tools.rc;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * {@code -c}: what received message i must be (README, "Two processes").
 *
 * <ul>
 * <li>From a jrdma peer: its message i ({@link PingpongMessage}), byte for byte.
 * <li>From rdma-core's ibv_*_pingpong, which sends and receives in one buffer: its server echoes
 *     what it received, so a client gets its own message i back, checked byte for byte; its
 *     client sends what it last received, so a server gets back its own message i − 1 — except
 *     message 0, the client's initial buffer (0x7b, and a zero at each page start with -c), which
 *     only rc_pingpong -c's own rule can check: a zero at every page start.
 * </ul>
 * Message 0 decides which the peer is, and every later message must be what that peer sends:
 * a jrdma peer never echoes, an rdma-core peer never sends a message of its own after the first.
 */
final class MessageCheck {
    private enum Peer { UNKNOWN, JRDMA, RDMA_CORE }

    private final String role;
    private final boolean server;
    private final int salt;
    private final int peerSalt;
    private final int size;
    private final MemorySegment expected;
    private Peer peer = Peer.UNKNOWN;
    private long fromPeer;
    private long echoes;
    private long byPageRule;

    MessageCheck(String role, boolean server, int salt, int peerSalt, int size, Arena arena) {
        this.role = role;
        this.server = server;
        this.salt = salt;
        this.peerSalt = peerSalt;
        this.size = size;
        this.expected = arena.allocate(Math.max(1, size), 64);
    }

    /** Checks received message {@code i} ({@code size} bytes at {@code offset}); throws EIO naming the first wrong byte. */
    void received(MemorySegment seg, long offset, long i) {
        switch (peer) {
            case JRDMA -> {
                expect(seg, offset, i, peerSalt, i, "from the jrdma " + peerRole());
                fromPeer++;
            }
            case RDMA_CORE -> {
                long echoed = server ? i - 1 : i;
                expect(seg, offset, i, salt, echoed, "an echo of our message " + echoed + ", as rdma-core's " + peerRole() + " sends");
                echoes++;
            }
            case UNKNOWN -> first(seg, offset);
        }
    }

    private void first(MemorySegment seg, long offset) {
        if (matches(seg, offset, peerSalt, 0)) {
            peer = Peer.JRDMA;
            fromPeer++;
            return;
        }
        int marked = PingpongMessage.markedSalt(seg, offset, size);
        if (!server) {
            if (marked == peerSalt) {
                expect(seg, offset, 0, peerSalt, 0, "from the jrdma server");
            }
            // Not the jrdma server's, so it must be rdma-core's server echoing our message 0.
            expect(seg, offset, 0, salt, 0, "neither the jrdma server's nor an echo of ours (rdma-core's server echoes)");
            peer = Peer.RDMA_CORE;
            echoes++;
            return;
        }
        if (marked >= 0) {
            expect(seg, offset, 0, peerSalt, 0, "from the jrdma client");
        }
        long page = PingpongMessage.firstNonZeroPageStart(seg, offset, size);
        if (page >= 0) {
            throw new VerbsException(Errno.EIO, String.format(
                    "%s: message 0 has 0x%02x at byte %d, the start of page %d, not 0: the client is not jrdma, and"
                            + " rc_pingpong -c writes a zero at each page start (run it with -c too)",
                    role, seg.get(ValueLayout.JAVA_BYTE, offset + page), page, page / PingpongMessage.PAGE_BYTES));
        }
        peer = Peer.RDMA_CORE;
        byPageRule++;
    }

    private boolean matches(MemorySegment seg, long offset, int from, long iteration) {
        PingpongMessage.write(expected, 0, size, iteration, from);
        return MemorySegment.mismatch(seg, offset, offset + size, expected, 0, size) < 0;
    }

    private void expect(MemorySegment seg, long offset, long i, int from, long iteration, String what) {
        PingpongMessage.write(expected, 0, size, iteration, from);
        long bad = MemorySegment.mismatch(seg, offset, offset + size, expected, 0, size);
        if (bad >= 0) {
            throw new VerbsException(Errno.EIO, String.format("%s: message %d differs at byte %d (0x%02x, expected 0x%02x; %s)",
                    role, i, bad, seg.get(ValueLayout.JAVA_BYTE, offset + bad), expected.get(ValueLayout.JAVA_BYTE, bad), what));
        }
    }

    private String peerRole() {
        return server ? "client" : "server";
    }

    long verified() {
        return fromPeer + echoes + byPageRule;
    }

    /** What was checked, for the tool's last line. */
    String summary() {
        String line = verified() + " messages verified";
        if (peer != Peer.RDMA_CORE) {
            return line;
        }
        return line + (server
                ? " (the client is not jrdma: its first by rc_pingpong -c's rule, a zero at each page start; the other "
                        + echoes + " are echoes of ours, byte for byte)"
                : " (the server is not jrdma: all are echoes of ours, as rdma-core's ibv_*_pingpong server sends, byte for byte)");
    }
}
