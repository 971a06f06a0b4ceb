package org.jrdma.soft.probe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.soft.FreshDevices;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftOptions;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * Not a test: the data path's CPU cost without the scheduler in the figure. Two soft devices in
 * INVOKER mode are stepped by this one thread, so a change to the per-packet code shows as a
 * change of ns per packet even on a busy two-core machine, where perf's two processes and four
 * threads measure mostly who got a core. Modes: write_bw and send_bw stream a window of 16
 * messages; send_lat ping-pongs one SEND each way and reports ns per round trip.
 * Run: java -cp <test classpath> org.jrdma.soft.probe.DataPathProbe MODE [size] [seconds] [idle QPs]
 * (idle QPs: that many more connected QP pairs that carry nothing, beside the measured one)
 * (the same file, with its two engine imports adjusted, runs against an older build to compare).
 */
public final class DataPathProbe {
    private static final int WINDOW = 16;
    private static final int RECVS = 64;

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "send_lat";
        int size = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int idle = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        SoftOptions invoker = SoftOptions.defaults().threading(ThreadingMode.INVOKER);
        SoftDevice da = FreshDevices.fresh("probe_a", invoker);
        SoftDevice db = FreshDevices.fresh("probe_b", invoker);
        try (Context a = da.open(); Context b = db.open(); Arena arena = Arena.ofShared()) {
            new DataPathProbe(a, b, arena, size, idle).run(mode, seconds);
        }
    }

    private final Context a;
    private final Context b;
    private final CompletionQueue cqa;
    private final CompletionQueue cqb;
    private final QueuePair qa;
    private final QueuePair qb;
    private final MemoryRegion ma;
    private final MemoryRegion mb;
    private final WorkCompletion[] wc = new WorkCompletion[WINDOW];

    private DataPathProbe(Context a, Context b, Arena arena, int size, int idle) {
        this.a = a;
        this.b = b;
        ProtectionDomain pa = a.allocPd();
        ProtectionDomain pb = b.allocPd();
        cqa = a.createCq(512, null);
        cqb = b.createCq(512, null);
        qa = pa.createQp(new QpInitAttr().cq(cqa).cap(new QpCap(128, RECVS * 2, 1, 1, 0)));
        qb = pb.createQp(new QpInitAttr().cq(cqb).cap(new QpCap(128, RECVS * 2, 1, 1, 0)));
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE;
        ma = pa.registerMemory(arena.allocate(size, 4096), access);
        mb = pb.registerMemory(arena.allocate(size, 4096), access);
        connect(qa, qb.qpNum(), b);
        connect(qb, qa.qpNum(), a);
        for (int i = 0; i < wc.length; i++) {
            wc[i] = new WorkCompletion();
        }
        for (int i = 0; i < idle; i++) {
            QueuePair ia = pa.createQp(new QpInitAttr().cq(cqa).cap(new QpCap(4, 4, 1, 1, 0)));
            QueuePair ib = pb.createQp(new QpInitAttr().cq(cqb).cap(new QpCap(4, 4, 1, 1, 0)));
            connect(ia, ib.qpNum(), b);
            connect(ib, ia.qpNum(), a);
        }
    }

    private void run(String mode, int seconds) {
        for (int round = 0; round < 2; round++) {
            long end = System.nanoTime() + (round == 0 ? 2 : seconds) * 1_000_000_000L;
            long t0 = System.nanoTime();
            long done = switch (mode) {
                case "write_bw" -> stream(WrOpcode.RDMA_WRITE, end);
                case "send_bw" -> stream(WrOpcode.SEND, end);
                case "send_lat" -> pingPong(end);
                default -> throw new IllegalArgumentException("mode: write_bw, send_bw or send_lat, not " + mode);
            };
            double ns = System.nanoTime() - t0;
            long size = ma.length();
            long packets = done * Math.max(1, (size + 4095) / 4096);
            System.out.printf("%s %s %d B: %d messages, %.0f ns/message, %.0f ns/packet, %.1f MiB/s%n",
                    round == 0 ? "warm-up " : "measured", mode, size, done, ns / done, ns / packets,
                    done * (double) size / (ns / 1e9) / (1 << 20));
        }
    }

    /** Messages completed at the sender while a window of {@link #WINDOW} stays posted. */
    private long stream(WrOpcode op, long end) {
        SendWorkRequest wr = new SendWorkRequest().opcode(op).flags(SendFlags.SIGNALED).sg(Sge.of(ma));
        if (op == WrOpcode.RDMA_WRITE) {
            wr.rdma(mb.addr(), mb.rkey());
        } else {
            postRecvs(qb, mb, RECVS);
        }
        long outstanding = 0;
        long done = 0;
        while (System.nanoTime() < end || outstanding > 0) {
            while (outstanding < WINDOW && System.nanoTime() < end) {
                qa.postSend(wr);
                outstanding++;
            }
            step();
            int n = poll(cqa);
            outstanding -= n;
            done += n;
            if (op == WrOpcode.SEND) {
                postRecvs(qb, mb, poll(cqb));
            }
        }
        return done;
    }

    /** Round trips: a SENDs to b, b answers with a SEND once it has a's. */
    private long pingPong(long end) {
        SendWorkRequest ping = new SendWorkRequest().opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(ma));
        SendWorkRequest pong = new SendWorkRequest().opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(mb));
        postRecvs(qa, ma, RECVS);
        postRecvs(qb, mb, RECVS);
        long done = 0;
        while (System.nanoTime() < end) {
            qa.postSend(ping);
            awaitRecv(cqb, qb, mb);
            qb.postSend(pong);
            awaitRecv(cqa, qa, ma);
            done++;
        }
        return done;
    }

    /** Steps both engines until {@code cq} holds a receive; reposts it. Send completions are consumed on the way. */
    private void awaitRecv(CompletionQueue cq, QueuePair qp, MemoryRegion mr) {
        while (true) {
            step();
            int n = cq.poll(wc);
            boolean got = false;
            for (int i = 0; i < n; i++) {
                check(wc[i]);
                if (wc[i].opcode == WcOpcode.RECV) {
                    got = true;
                    postRecvs(qp, mr, 1);
                }
            }
            if (got) {
                return;
            }
        }
    }

    private void step() {
        FreshDevices.hca(a).doWork();
        FreshDevices.hca(b).doWork();
    }

    private int poll(CompletionQueue cq) {
        int n = cq.poll(wc);
        for (int i = 0; i < n; i++) {
            check(wc[i]);
        }
        return n;
    }

    private static void check(WorkCompletion c) {
        if (c.status != WcStatus.SUCCESS) {
            throw new IllegalStateException(c.toString());
        }
    }

    private static void postRecvs(QueuePair qp, MemoryRegion mr, int n) {
        for (int i = 0; i < n; i++) {
            qp.postRecv(new RecvWorkRequest().wrId(i).sg(Sge.of(mr)));
        }
    }

    private static void connect(QueuePair qp, int remote, Context peer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.REMOTE_WRITE));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_4096).destQpNum(remote).rqPsn(1).maxDestRdAtomic(1)
                .minRnrTimer(1).ahAttr(AhAttr.roce(peer.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(1).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
