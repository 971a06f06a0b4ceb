package org.jrdma.bootstrap;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;

/**
 * A protection domain that records what {@link RcConnector} allocates: every QP it creates, the
 * states each reaches and whether it was closed. Enough to prove "nothing allocated before the
 * peer is authenticated" (OOB-11) and "a failed set-up leaves no QP behind" (OOB-14) without a device.
 */
public final class FakeVerbs {
    /** One created QP. */
    public static final class Qp {
        public final List<QpState> states = new ArrayList<>();
        /** What each modify carried, in order (the one-argument modify: its mask is the attr's). */
        public final List<QpAttr> attrs = new ArrayList<>();
        public volatile boolean closed;
    }

    public final List<Qp> qps = new ArrayList<>();
    public final ProtectionDomain pd;
    public final CompletionQueue cq;

    public FakeVerbs(Gid gid) {
        Context context = proxy(Context.class, (m, args) -> switch (m) {
            case "queryGid" -> gid;
            default -> throw new AssertionError("unexpected Context." + m);
        });
        cq = proxy(CompletionQueue.class, (m, args) -> {
            throw new AssertionError("unexpected CompletionQueue." + m);
        });
        pd = proxy(ProtectionDomain.class, (m, args) -> switch (m) {
            case "context" -> context;
            case "createQp" -> newQp();
            case "createAh" -> proxy(AddressHandle.class, (m2, args2) -> switch (m2) {
                case "close" -> null;
                default -> throw new AssertionError("unexpected AddressHandle." + m2);
            });
            default -> throw new AssertionError("unexpected ProtectionDomain." + m);
        });
    }

    private synchronized QueuePair newQp() {
        Qp record = new Qp();
        qps.add(record);
        int qpn = 0x100 + qps.size();
        return proxy(QueuePair.class, (m, args) -> switch (m) {
            case "qpNum" -> qpn;
            case "modify" -> {
                record.states.add(((QpAttr) args[0]).qpState());
                record.attrs.add((QpAttr) args[0]);
                yield null;
            }
            case "close" -> {
                record.closed = true;
                yield null;
            }
            default -> throw new AssertionError("unexpected QueuePair." + m);
        });
    }

    public synchronized int created() {
        return qps.size();
    }

    @FunctionalInterface
    private interface Handler {
        Object handle(String method, Object[] args) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, Handler h) {
        return type.cast(Proxy.newProxyInstance(FakeVerbs.class.getClassLoader(), new Class<?>[] {type}, (p, m, args) -> {
            if (m.getDeclaringClass() == Object.class) {
                return switch (m.getName()) {
                    case "toString" -> "Fake" + type.getSimpleName();
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    default -> null;
                };
            }
            return h.handle(m.getName(), args);
        }));
    }
}
