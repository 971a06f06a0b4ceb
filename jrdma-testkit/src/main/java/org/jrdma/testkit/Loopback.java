package org.jrdma.testkit;

import java.lang.foreign.Arena;
import java.util.Random;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * Two RC QPs connected to each other, RESET → INIT → RTR → RTS, each with its own PD, send CQ,
 * receive CQ (and optionally a completion channel) and two registered buffers, one to send
 * from and one to receive into. Both may live in one context or in two. Closing releases
 * everything in reverse order.
 */
public final class Loopback implements AutoCloseable {
    /** How to build the pair. */
    public record Options(Mtu mtu, int bufferBytes, QpCap cap, int cqEntries, boolean sqSigAll,
            boolean completionChannel, long seed) {
        public static Options defaults() {
            return new Options(Mtu.MTU_1024, 64 * 1024, new QpCap(64, 64, 1, 1, 0), 256, false, false, 0x5EED);
        }

        public Options withMtu(Mtu m) {
            return new Options(m, bufferBytes, cap, cqEntries, sqSigAll, completionChannel, seed);
        }

        /** The size of each of the four buffers (both sides' send and receive buffers). */
        public Options withBufferBytes(int n) {
            return new Options(mtu, n, cap, cqEntries, sqSigAll, completionChannel, seed);
        }

        public Options withCap(QpCap c) {
            return new Options(mtu, bufferBytes, c, cqEntries, sqSigAll, completionChannel, seed);
        }

        public Options withCqEntries(int n) {
            return new Options(mtu, bufferBytes, cap, n, sqSigAll, completionChannel, seed);
        }

        public Options withSqSigAll(boolean on) {
            return new Options(mtu, bufferBytes, cap, cqEntries, on, completionChannel, seed);
        }

        /** Gives each side a completion channel that both of its CQs report to. */
        public Options withCompletionChannel(boolean on) {
            return new Options(mtu, bufferBytes, cap, cqEntries, sqSigAll, on, seed);
        }

        /** Seeds the initial PSNs. */
        public Options withSeed(long s) {
            return new Options(mtu, bufferBytes, cap, cqEntries, sqSigAll, completionChannel, s);
        }
    }

    /** One side of the pair. */
    public static final class Endpoint {
        public final Context context;
        public final ProtectionDomain pd;
        /** Null unless {@link Options#completionChannel()}. */
        public final CompletionChannel channel;
        public final CompletionQueue sendCq;
        public final CompletionQueue recvCq;
        public final QueuePair qp;
        /** Where this side's sends gather from. */
        public final MemoryRegion sendMr;
        /** Where this side's receives scatter to. */
        public final MemoryRegion recvMr;
        /** The PSN this side starts sending with (its peer's expected PSN). */
        public final int sqPsn;
        public final Gid gid;

        private Endpoint(Context context, int port, int gidIndex, Options o, int sqPsn, Arena arena, Closer closer) {
            this.context = context;
            this.sqPsn = sqPsn;
            this.gid = context.queryGid(port, gidIndex);
            this.pd = closer.add(context.allocPd());
            this.channel = o.completionChannel() ? closer.add(context.createCompChannel()) : null;
            this.sendCq = closer.add(context.createCq(o.cqEntries(), channel));
            this.recvCq = closer.add(context.createCq(o.cqEntries(), channel));
            this.sendMr = closer.add(pd.registerMemory(arena.allocate(o.bufferBytes(), 4096), RcAttrs.ACCESS));
            this.recvMr = closer.add(pd.registerMemory(arena.allocate(o.bufferBytes(), 4096), RcAttrs.ACCESS));
            this.qp = closer.add(pd.createQp(new QpInitAttr().qpType(QpType.RC).sendCq(sendCq).recvCq(recvCq)
                    .cap(o.cap()).sqSigAll(o.sqSigAll())));
        }
    }

    private final Closer closer;
    private final Endpoint a;
    private final Endpoint b;

    private Loopback(Closer closer, Endpoint a, Endpoint b) {
        this.closer = closer;
        this.a = a;
        this.b = b;
    }

    /** Both QPs in one context. */
    public static Loopback open(Context context, int port, int gidIndex, Options o) {
        return open(context, context, port, gidIndex, o);
    }

    /** QP a in {@code contextA}, QP b in {@code contextB}, connected to each other and in RTS. */
    public static Loopback open(Context contextA, Context contextB, int port, int gidIndex, Options o) {
        Closer closer = new Closer();
        try {
            // Shared, not confined: the provider's engine threads read and write these buffers.
            Arena arena = Arena.ofShared();
            closer.add(arena::close);
            Random psns = new Random(o.seed());
            Endpoint a = new Endpoint(contextA, port, gidIndex, o, psns.nextInt(1 << 24), arena, closer);
            Endpoint b = new Endpoint(contextB, port, gidIndex, o, psns.nextInt(1 << 24), arena, closer);
            a.qp.modify(RcAttrs.init(port, RcAttrs.ACCESS));
            b.qp.modify(RcAttrs.init(port, RcAttrs.ACCESS));
            a.qp.modify(RcAttrs.rtr(AhAttr.roce(b.gid, gidIndex, port), o.mtu(), b.qp.qpNum(), b.sqPsn));
            b.qp.modify(RcAttrs.rtr(AhAttr.roce(a.gid, gidIndex, port), o.mtu(), a.qp.qpNum(), a.sqPsn));
            a.qp.modify(RcAttrs.rts(a.sqPsn));
            b.qp.modify(RcAttrs.rts(b.sqPsn));
            return new Loopback(closer, a, b);
        } catch (RuntimeException | Error e) {
            try {
                closer.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    public Endpoint a() {
        return a;
    }

    public Endpoint b() {
        return b;
    }

    @Override
    public void close() {
        closer.close();
    }
}
