package org.jrdma.tools.rping;

import java.time.Duration;
import org.jrdma.cm.CmEvent;
import org.jrdma.cm.CmEventType;
import org.jrdma.cm.EventChannel;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/** Waiting for the one CM event the next step needs, as rping's cma_event_handler does. */
final class Events {
    private Events() {
    }

    /** The next event, which must be {@code want}; anything else (REJECTED, UNREACHABLE, …) is an error naming it. */
    static CmEvent expect(EventChannel events, CmEventType want, Duration timeout) {
        CmEvent e = events.getEvent(timeout);
        if (e.type() != want) {
            CmEventType got = e.type();
            int status = e.status();
            e.ack();
            throw new VerbsException(Errno.ECONNREFUSED, "rping: waiting for " + want + ", got " + got
                    + (status != 0 ? " (status " + status + ")" : ""));
        }
        return e;
    }
}
