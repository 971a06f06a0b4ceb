package org.jrdma.soft.probe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.soft.FreshDevices;
import org.jrdma.soft.SoftContext;
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
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * Not a test: a probe of the data path's CPU cost. Two soft devices in INVOKER mode, stepped
 * by this one thread, stream RDMA WRITEs; the figure is throughput with both ends on one core.
 * Run: java -cp <test classpath> org.jrdma.soft.probe.WriteProbe [size] [seconds] [mtu]
 */
public final class WriteProbe {
    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 65536;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Mtu mtu = Mtu.fromBytes(args.length > 2 ? Integer.parseInt(args[2]) : 4096);
        SoftOptions invoker = SoftOptions.defaults().threading(ThreadingMode.INVOKER);
        SoftDevice da = FreshDevices.fresh("probe_a", invoker);
        SoftDevice db = FreshDevices.fresh("probe_b", invoker);
        try (Context a = da.open(); Context b = db.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pa = a.allocPd();
            ProtectionDomain pb = b.allocPd();
            CompletionQueue cqa = a.createCq(256, null);
            CompletionQueue cqb = b.createCq(256, null);
            QueuePair qa = pa.createQp(new QpInitAttr().cq(cqa).cap(new QpCap(128, 16, 1, 1, 0)));
            QueuePair qb = pb.createQp(new QpInitAttr().cq(cqb).cap(new QpCap(16, 16, 1, 1, 0)));
            MemorySegment src = arena.allocate(size, 4096);
            MemorySegment dst = arena.allocate(size, 4096);
            MemoryRegion ma = pa.registerMemory(src, AccessFlags.LOCAL_WRITE);
            MemoryRegion mb = pb.registerMemory(dst, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            connect(qa, a, qb.qpNum(), b, mtu);
            connect(qb, b, qa.qpNum(), a, mtu);
            SendWorkRequest wr = new SendWorkRequest().opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(ma)).rdma(mb.addr(), mb.rkey());
            WorkCompletion[] wc = new WorkCompletion[16];
            for (int i = 0; i < wc.length; i++) {
                wc[i] = new WorkCompletion();
            }
            var ha = FreshDevices.hca(a);
            var hb = FreshDevices.hca(b);
            int window = 16;
            for (int round = 0; round < 2; round++) {
                long outstanding = 0;
                long done = 0;
                long end = System.nanoTime() + (round == 0 ? 2 : seconds) * 1_000_000_000L;
                long t0 = System.nanoTime();
                while (System.nanoTime() < end) {
                    while (outstanding < window) {
                        qa.postSend(wr);
                        outstanding++;
                    }
                    ha.doWork();
                    hb.doWork();
                    int n = cqa.poll(wc);
                    for (int i = 0; i < n; i++) {
                        if (wc[i].status != WcStatus.SUCCESS) {
                            throw new IllegalStateException(wc[i].toString());
                        }
                    }
                    outstanding -= n;
                    done += n;
                }
                double secs = (System.nanoTime() - t0) / 1e9;
                long packets = done * ((size + mtu.bytes() - 1) / mtu.bytes());
                System.out.printf("%s: %d WRITEs of %d B in %.2f s = %.1f MiB/s, %.0f ns/packet (both ends, one thread), %s%n",
                        round == 0 ? "warm-up" : "measured", done, size, secs, done * (double) size / secs / (1 << 20),
                        secs * 1e9 / packets, ha.countersSnapshot().get("retransmitted_packets") + " retransmitted");
            }
        }
    }

    private static void connect(QueuePair qp, Context ctx, int remote, Context peer, Mtu mtu) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.REMOTE_WRITE));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(mtu).destQpNum(remote).rqPsn(1).maxDestRdAtomic(1).minRnrTimer(1)
                .ahAttr(AhAttr.roce(peer.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(1).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
