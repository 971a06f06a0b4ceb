package org.jrdma.soft.transport;

import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Says when a QP keeps retrying without progress. With {@code rnr_retry} 7 a SEND to a peer
 * that posts no receive is RNR-NAKed and retried for ever, as IBA says, and a long local ACK
 * timeout keeps a QP whose peer is gone retrying for many seconds before RETRY_EXC_ERR: in both
 * cases nothing completes and, without this, nothing is said (issue 12 item 8: 6,000 RNR NAKs
 * in 8 s, silently). One warning per QP and episode — an episode runs from the first RNR NAK or
 * timeout after progress to the next progress — once it has lasted {@link #WARN_AFTER_NANOS},
 * naming the likely cause and the counter that shows it; at most {@link #LINES_PER_INTERVAL}
 * such lines per device and second (many stuck QPs), the rest summed up.
 *
 * <p>Called by the completer on the engine's thread with the QP's monitor held; nothing
 * allocates until a line is written.
 */
public final class StallWarnings {
    /** How long retries may go on without progress before it is worth a line. */
    public static final long WARN_AFTER_NANOS = 1_000_000_000L;
    static final int LINES_PER_INTERVAL = 10;
    private static final long INTERVAL_NANOS = 1_000_000_000L;
    private static final System.Logger LOG = System.getLogger("org.jrdma.soft.stalls");

    /** What the QP met. */
    enum Cause {
        /** The responder had no receive for a SEND (or WRITE with immediate). */
        RNR_NAK,
        /** No answer within the local ACK timeout. */
        TIMEOUT
    }

    private final String device;
    private final LogBudget budget = new LogBudget(LINES_PER_INTERVAL, INTERVAL_NANOS);
    private final LongConsumer summary;

    public StallWarnings(String device) {
        this.device = device;
        this.summary = held -> LOG.log(Level.WARNING, "jrdma-soft " + device + ": " + held
                + " more QPs retrying without progress not logged (see rnr_naks_rcvd, retry_timeouts)");
    }

    /** {@code qp} retried after an RNR NAK or a timeout that acknowledged nothing new. */
    void retried(TransportQp qp, Cause cause, long now) {
        if (!qp.comp.stalled) {
            qp.comp.stalled = true;
            qp.comp.stallStartNanos = now;
            qp.comp.stallReported = false;
            qp.comp.stallRnrNaks = qp.counters.get(QpCounter.RNR_NAKS_RCVD) - (cause == Cause.RNR_NAK ? 1 : 0);
            qp.comp.stallTimeouts = qp.counters.get(QpCounter.RETRY_TIMEOUTS) - (cause == Cause.TIMEOUT ? 1 : 0);
            qp.comp.stallResent = qp.counters.get(QpCounter.RETRANSMITTED_PACKETS);
            return;
        }
        if (qp.comp.stallReported || now - qp.comp.stallStartNanos < WARN_AFTER_NANOS) {
            return;
        }
        qp.comp.stallReported = true;
        if (budget.allow(now, summary)) {
            LOG.log(Level.WARNING, line(qp, cause, now));
        }
    }

    /** {@code qp} made progress: an episode, if one was on, is over. */
    static void progressed(TransportQp qp) {
        qp.comp.stalled = false;
    }

    /** Lines held back by the rate limit. */
    public long suppressed() {
        return budget.suppressed();
    }

    private String line(TransportQp qp, Cause cause, long now) {
        double seconds = (now - qp.comp.stallStartNanos) / 1e9;
        String peer = "QP 0x" + hex(qp.attr.destQpn) + (qp.peer == null ? "" : " at " + qp.peer.socketAddress().getAddress().getHostAddress());
        String head = String.format(Locale.ROOT, "jrdma-soft %s: QP 0x%s has made no progress for %.1f s: ", device,
                hex(qp.qpn), seconds);
        if (cause == Cause.RNR_NAK) {
            long naks = qp.counters.get(QpCounter.RNR_NAKS_RCVD);
            return head + (naks - qp.comp.stallRnrNaks) + " RNR NAKs from " + peer + " (rnr_naks_rcvd=" + naks + "): the peer"
                    + " has no receive posted — it must post receives before it is sent to; "
                    + (qp.attr.rnrRetry == 7 ? "rnr_retry 7 retries for ever, so the SEND waits until it does"
                            : "after rnr_retry " + qp.attr.rnrRetry + " the SEND fails with RNR_RETRY_EXC_ERR");
        }
        long timeouts = qp.counters.get(QpCounter.RETRY_TIMEOUTS);
        long resent = qp.counters.get(QpCounter.RETRANSMITTED_PACKETS);
        return head + (timeouts - qp.comp.stallTimeouts) + " timeouts waiting for " + peer + " (retry_timeouts=" + timeouts
                + ", retransmitted_packets=" + resent + "): the peer is gone or unreachable — its process ended or"
                + " is stopped, its QP was destroyed or is in ERR, the address or QPN is wrong, or the packets are dropped; after"
                + " retry_cnt " + qp.attr.retryCnt + " the WR fails with RETRY_EXC_ERR";
    }

    private static String hex(int qpn) {
        return String.format("%06x", qpn);
    }
}
