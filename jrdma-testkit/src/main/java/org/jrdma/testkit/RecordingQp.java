package org.jrdma.testkit;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.spi.QpTransitions;

/**
 * A {@link QueuePair} with no provider behind it, for pinning the exact attributes and masks code
 * gives modify_qp: each modify is checked against {@link QpTransitions} (as every provider checks
 * it, so a refused one records nothing), moves the QP to the state it leads to and is recorded.
 * Only {@code qpNum}, {@code qpType}, {@code state} and {@code modify} are supported.
 */
public final class RecordingQp {
    /**
     * One modify_qp call as made.
     *
     * @param attr the attributes given
     * @param mask the attribute mask given
     */
    public record Modify(QpAttr attr, int mask) {
    }

    private final QpType qpType;
    private final int qpNum;
    private final List<Modify> modifies = new ArrayList<>();
    private final QueuePair qp;
    private QpState state = QpState.RESET;

    /**
     * A QP in RESET.
     *
     * @param qpType its type, which decides the legal transitions
     * @param qpNum the QPN it reports
     */
    public RecordingQp(QpType qpType, int qpNum) {
        this.qpType = qpType;
        this.qpNum = qpNum;
        this.qp = (QueuePair) Proxy.newProxyInstance(RecordingQp.class.getClassLoader(), new Class<?>[] {QueuePair.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "qpNum" -> qpNum;
                    case "qpType" -> qpType;
                    case "state" -> state;
                    case "modify" -> {
                        QpAttr attr = (QpAttr) args[0];
                        modify(attr, args.length == 2 ? (int) args[1] : attr.mask());
                        yield null;
                    }
                    case "toString" -> "RecordingQp(" + qpType + ", " + state + ")";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException("RecordingQp." + method.getName());
                });
    }

    private synchronized void modify(QpAttr attr, int mask) {
        state = QpTransitions.check(qpType, state, attr, mask);
        modifies.add(new Modify(attr, mask));
    }

    /**
     * The QP to give the code under test.
     *
     * @return a {@link QueuePair} whose other methods throw UnsupportedOperationException
     */
    public QueuePair qp() {
        return qp;
    }

    /**
     * The QPN it reports.
     *
     * @return the QPN
     */
    public int qpNum() {
        return qpNum;
    }

    /**
     * Every modify that passed, in order.
     *
     * @return the recorded modifies
     */
    public synchronized List<Modify> modifies() {
        return List.copyOf(modifies);
    }
}
