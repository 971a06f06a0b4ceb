package org.jrdma.soft.engine;

import java.util.Arrays;
import java.util.function.IntFunction;
import org.jrdma.soft.memory.IntMap;
import org.jrdma.soft.memory.Quarantine;
import org.jrdma.soft.memory.SecureIds;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;

/**
 * A device's QPs: by number, for the receive path's lookup, and as an array the engine walks
 * every pass. The array is copied on create and destroy (rare) so a pass reads it without a
 * lock; the map is guarded by its own monitor. Generic in the QP only so a test can fill it
 * without a device; the device's table holds {@link EngineQp}s.
 */
public final class QpTable<Q extends QpTable.Entry> {
    /** The most QPs a device holds (advertised as MAX_QP). */
    public static final int MAX_QP = 1 << 16;

    /** What the table keeps: something with a QP number. */
    public interface Entry {
        int qpNum();
    }

    private final IntMap<Q> byNumber = new IntMap<>();
    /** QPNs of destroyed QPs, not handed out again for 2^16 destructions (SEC-03: a stale QPN reaches nothing). */
    private final Quarantine retired = new Quarantine(Quarantine.DEFAULT_CAPACITY);
    private volatile Q[] all;

    /** {@code empty}: a zero-length array of the entry type, which {@link #all} copies. */
    QpTable(Q[] empty) {
        if (empty.length != 0) {
            throw new IllegalArgumentException("not empty: " + empty.length);
        }
        this.all = empty;
    }

    /**
     * Picks a QPN for a new QP of {@code type} and adds the QP {@code make} builds with it: QP1 for
     * the GSI QP, else a random one never 0 or 1, not in use and not recently retired.
     */
    Q create(QpType type, IntFunction<Q> make) {
        synchronized (byNumber) {
            if (byNumber.size() >= MAX_QP) {
                throw new VerbsException(Errno.ENOMEM, "create_qp: the device has " + MAX_QP + " QPs already");
            }
            int qpn;
            if (type == QpType.GSI) {
                // QP1 is the device's, not a context's: the CM of whichever context made it owns
                // every CM message to this address until it is destroyed.
                if (byNumber.containsKey(QpType.GSI_QP_NUM)) {
                    throw new VerbsException(Errno.EBUSY, "create_qp: the device's GSI QP (QP1) exists already");
                }
                qpn = QpType.GSI_QP_NUM;
            } else {
                do {
                    qpn = SecureIds.qpn(); // never 0 or 1
                } while (byNumber.containsKey(qpn) || retired.contains(qpn));
            }
            Q qp = make.apply(qpn);
            byNumber.put(qpn, qp);
            Q[] next = Arrays.copyOf(all, all.length + 1);
            next[next.length - 1] = qp;
            all = next;
            return qp;
        }
    }

    void remove(Q qp) {
        synchronized (byNumber) {
            byNumber.remove(qp.qpNum());
            if (qp.qpNum() != QpType.GSI_QP_NUM) {
                retired.add(qp.qpNum());
            }
            Q[] cur = all;
            Q[] next = Arrays.copyOf(cur, cur.length - 1);
            int j = 0;
            for (Q q : cur) {
                if (q != qp && j < next.length) {
                    next[j++] = q;
                }
            }
            all = next;
        }
    }

    /** The QP numbered {@code qpn}, or null. */
    Q get(int qpn) {
        synchronized (byNumber) {
            return byNumber.get(qpn);
        }
    }

    /** Every QP, in creation order (do not modify: shared with the next pass). */
    Q[] all() {
        return all;
    }
}
