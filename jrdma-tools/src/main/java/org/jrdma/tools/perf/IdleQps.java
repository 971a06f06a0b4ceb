package org.jrdma.tools.perf;

import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.Context;

/**
 * {@code --idle-qps N} (jrdma's own flag): N RC QPs beside the test's, on the same PD, with a CQ
 * of their own, connected and at RTS but never posted to, so that a run measures its busy QPs
 * among many idle ones (issue 15: "1 busy QP beside 1,000 idle ones"). They are local to each
 * side and never exchanged, so the exchange stays perftest's whatever N is, and either side may
 * have them or not: this side connects them to each other in pairs (QP 2k with 2k+1, to its own
 * GID) — an odd N's last one to itself — with the same attributes as the test's QPs.
 */
final class IdleQps implements AutoCloseable {
    /** The most a side may hold (the soft device has room for 65,536 QPs). */
    static final int MAX = 16_384;

    private final CompletionQueue cq;
    private final QueuePair[] qps;

    private IdleQps(CompletionQueue cq, QueuePair[] qps) {
        this.cq = cq;
        this.qps = qps;
    }

    /** None: nothing to create or close. */
    static final IdleQps NONE = new IdleQps(null, new QueuePair[0]);

    /** Creates {@code n} QPs and takes them to RTS, paired; on a failure what was made is released. */
    static IdleQps open(Context ctx, ProtectionDomain pd, Gid gid, int gidIndex, Mtu mtu, int n) {
        if (n == 0) {
            return NONE;
        }
        CompletionQueue cq = ctx.createCq(16, null);
        IdleQps idle = new IdleQps(cq, new QueuePair[n]);
        try {
            QpCap cap = new QpCap(1, 1, 1, 1, 0);
            for (int i = 0; i < n; i++) {
                idle.qps[i] = pd.createQp(new QpInitAttr().sendCq(cq).recvCq(cq).qpType(QpType.RC).cap(cap));
                QpConnector.toInit(idle.qps[i]);
            }
            for (int i = 0; i < n; i++) {
                int partner = pairOf(i, n);
                KeyMessage peer = new KeyMessage(0, 1, idle.qps[partner].qpNum(), psn(partner), 0, 0, gid, 0);
                QpConnector.toRtr(idle.qps[i], mtu, peer, gidIndex, 1);
                QpConnector.toRts(idle.qps[i], psn(i), 1);
            }
            return idle;
        } catch (RuntimeException e) {
            try {
                idle.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** QP {@code i}'s partner: 2k and 2k+1 go together; an odd count's last QP is its own. */
    static int pairOf(int i, int n) {
        int partner = i ^ 1;
        return partner < n ? partner : i;
    }

    /** A fixed PSN per QP: nothing is ever sent, so any valid one does. */
    private static int psn(int i) {
        return (i * 0x9E3779) & 0xFFFFFF;
    }

    int size() {
        return qps.length;
    }

    QueuePair qp(int i) {
        return qps[i];
    }

    /** Destroys the QPs, then their CQ (before the PD and the context they were made on). */
    @Override
    public void close() {
        RuntimeException first = null;
        for (QueuePair qp : qps) {
            if (qp == null) {
                continue;
            }
            try {
                qp.close();
            } catch (Exception e) {
                first = first != null ? first : new IllegalStateException("closing an idle QP", e);
            }
        }
        if (cq != null) {
            try {
                cq.close();
            } catch (RuntimeException e) {
                first = first != null ? first : e;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
