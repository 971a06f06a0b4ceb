package org.jrdma.tools.perf;

import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Whether the out-of-band peer has gone, looked at by a side that waits on its QPs during a run
 * (ten times a second, only while idle). A receiver whose sender was killed has nothing
 * outstanding that could time out and waited all of --timeout-ms; the kernel closes a killed
 * process's TCP socket at once (with -R, perftest's kernel destroys its ids: a DISCONNECTED).
 *
 * <p>A close is not a failure at once: write_lat has no closing exchange, so a peer that
 * finished may close while this side still has its last WRITE to notice or its last ACK to
 * take — both on their way before the close. The side fails when, a look period after it saw
 * the close, it has made no progress since.
 */
final class PeerWatch {
    static final long LOOK_EVERY_NANOS = 100_000_000L;

    private final java.util.function.BooleanSupplier gone;
    private final boolean rdmaCm;
    private long nextLook;
    private boolean seenGone;
    /** When the peer was seen gone, or the last progress after that. */
    private long goneSince;

    /** {@code gone} looks without waiting (PerfExchange.peerClosed); {@code now} starts the clock. */
    PeerWatch(java.util.function.BooleanSupplier gone, boolean rdmaCm, long now) {
        this.gone = gone;
        this.rdmaCm = rdmaCm;
        this.nextLook = now + LOOK_EVERY_NANOS;
    }

    /** When the caller, sleeping on events (-e), should wake to look again. */
    long nextLook() {
        return seenGone ? goneSince + LOOK_EVERY_NANOS : nextLook;
    }

    /**
     * After a pass without work: looks when it is time, and throws once the peer has been gone
     * for a look period with no progress since ({@code lastProgress}). {@code what} and {@code
     * count} say how far the run got ("messages received", 1222), or with a count below 0 what it
     * waited for ("the peer's WRITE"); null: nothing to say. The message is made only then, so a
     * look allocates nothing.
     */
    void check(long now, long lastProgress, String what, long count) {
        if (!seenGone) {
            if (now - nextLook >= 0) {
                nextLook = now + LOOK_EVERY_NANOS;
                if (gone.getAsBoolean()) {
                    seenGone = true;
                    goneSince = now;
                }
            }
            return;
        }
        if (lastProgress - goneSince > 0) {
            goneSince = lastProgress; // what was on its way still came: wait a period more
        } else if (now - goneSince >= LOOK_EVERY_NANOS) {
            throw new VerbsException(Errno.EIO, "the peer " + (rdmaCm ? "disconnected" : "closed the out-of-band connection")
                    + " during the run" + (what == null ? "" : count < 0 ? ", while waiting for " + what
                    : ", after " + count + " " + what)
                    + ": was it killed? (its own output says why it ended)");
        }
    }
}
