package org.jrdma.soft.engine;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.FlightRecorder;
import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.jfr.DropSummaryEvent;
import org.jrdma.verbs.jfr.RetrySummaryEvent;

/**
 * The soft provider's periodic Flight Recorder events: once a period (RetrySummaryEvent's and
 * DropSummaryEvent's {@code @Period}) JFR's own thread reads the counters of every open
 * device and QP and commits what moved since the last period. The engine's hot path is not
 * touched: it only increments counters, as it always did. A QP destroyed between two periods
 * gets its last summary when it goes, so a short-lived QP's retries are not lost.
 */
public final class FlightEvents {
    /** The retry counters a summary carries, in RetrySummaryEvent's field order. */
    private static final QpCounter[] RETRY = {QpCounter.RETRANSMITTED_PACKETS, QpCounter.RETRY_TIMEOUTS,
            QpCounter.SEQ_NAKS_RCVD, QpCounter.RNR_NAKS_SENT, QpCounter.RNR_NAKS_RCVD, QpCounter.RETRY_EXCEEDED,
            QpCounter.RNR_RETRY_EXCEEDED};
    private static final DropReason[] REASONS = DropReason.values();

    private static final Set<SoftHca> LIVE = ConcurrentHashMap.newKeySet();
    /** Counter values at the last summary, per QP and per device; guarded by the class lock. */
    private static final Map<TransportQp, long[]> QP_LAST = new IdentityHashMap<>();
    private static final Map<SoftHca, long[]> DROP_LAST = new IdentityHashMap<>();

    static {
        FlightRecorder.addPeriodicEvent(RetrySummaryEvent.class, FlightEvents::retries);
        FlightRecorder.addPeriodicEvent(DropSummaryEvent.class, FlightEvents::drops);
    }

    private FlightEvents() {
    }

    static void started(SoftHca hca) {
        LIVE.add(hca);
    }

    /** The device stopped: its last drops (and its QPs' last retries) are summarised and it is read no more. */
    static void stopped(SoftHca hca) {
        if (LIVE.remove(hca)) {
            synchronized (FlightEvents.class) {
                for (EngineQp q : hca.qps()) {
                    if (q != null) {
                        retriesOf(q.transport());
                        QP_LAST.remove(q.transport());
                    }
                }
                dropsOf(hca);
                DROP_LAST.remove(hca);
            }
        }
    }

    /** {@code qp} of device {@code device} is being destroyed: its last retries are summarised. */
    public static void qpClosed(TransportQp qp) {
        synchronized (FlightEvents.class) {
            retriesOf(qp);
            QP_LAST.remove(qp);
        }
    }

    private static synchronized void retries() {
        Set<TransportQp> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (SoftHca hca : LIVE) {
            for (EngineQp q : hca.qps()) {
                if (q != null) {
                    retriesOf(q.transport());
                    seen.add(q.transport());
                }
            }
        }
        QP_LAST.keySet().retainAll(seen); // a QP whose device went without closing it
    }

    private static void retriesOf(TransportQp qp) {
        RetrySummaryEvent e = new RetrySummaryEvent();
        if (!e.isEnabled()) {
            return;
        }
        long[] last = QP_LAST.computeIfAbsent(qp, k -> new long[RETRY.length]);
        long[] d = new long[RETRY.length];
        boolean moved = false;
        for (int i = 0; i < RETRY.length; i++) {
            long now = qp.counters.get(RETRY[i]);
            d[i] = now - last[i];
            last[i] = now;
            moved |= d[i] != 0;
        }
        if (!moved) {
            return;
        }
        e.device = qp.device;
        e.qpn = qp.qpn;
        e.retransmittedPackets = d[0];
        e.retryTimeouts = d[1];
        e.seqNaksRcvd = d[2];
        e.rnrNaksSent = d[3];
        e.rnrNaksRcvd = d[4];
        e.retryExceeded = d[5];
        e.rnrRetryExceeded = d[6];
        e.commit();
    }

    private static synchronized void drops() {
        for (SoftHca hca : LIVE) {
            dropsOf(hca);
        }
    }

    private static void dropsOf(SoftHca hca) {
        if (!new DropSummaryEvent().isEnabled()) {
            return;
        }
        long[] last = DROP_LAST.computeIfAbsent(hca, k -> new long[REASONS.length]);
        for (DropReason r : REASONS) {
            if (r == DropReason.NONE) {
                continue;
            }
            long now = hca.drops(r);
            long delta = now - last[r.ordinal()];
            last[r.ordinal()] = now;
            if (delta != 0) {
                DropSummaryEvent e = new DropSummaryEvent();
                e.device = hca.name();
                e.reason = Counters.label(r); // as the drop_<reason> counters name it
                e.count = delta;
                e.commit();
            }
        }
    }
}
