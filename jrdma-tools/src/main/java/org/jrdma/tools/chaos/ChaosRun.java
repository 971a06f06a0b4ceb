package org.jrdma.tools.chaos;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jrdma.soft.SoftContext;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftDeviceSpec;
import org.jrdma.soft.SoftOptions;
import org.jrdma.soft.net.Impairment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * One cell of the chaos matrix: two soft devices on their own loopback addresses, each
 * impairing what it sends, one RC connection between them, and a workload of SENDs, RDMA
 * WRITEs, RDMA READs and FETCH_ADDs, every byte checked and the atomic counter checked to be
 * exact. A window of operations is kept outstanding; a slot is reused only once its operation
 * completed and was verified.
 */
final class ChaosRun implements AutoCloseable {
    private static final long DEADLINE_NANOS = 300_000_000_000L;
    private static final int ATOMICS_PER_MESSAGE = 4;

    private final ChaosCell cell;
    private final ChaosConfig config;
    private final String impairmentA;
    private final String impairmentB;
    private final Context ctxA;
    private final Context ctxB;
    private final CompletionQueue cqA;
    private final CompletionQueue cqB;
    private final QueuePair qpA;
    private final QueuePair qpB;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment aData;
    private final MemorySegment aAtomics;
    private final MemorySegment bData;
    private final MemoryRegion mrAData;
    private final MemoryRegion mrAAtomics;
    private final MemoryRegion mrBData;
    private final WorkCompletion[] wc = {new WorkCompletion()};
    private final SendWorkRequest send = new SendWorkRequest();
    private final RecvWorkRequest recv = new RecvWorkRequest();
    private final Sge sge = new Sge();
    private final Sge recvSge = new Sge();
    private long bytes;
    private boolean verified = true;
    private String error;
    private long errorNanos;
    private long start;
    private long partitionStart;

    ChaosRun(ChaosCell cell, ChaosConfig config, long seed, InetAddress a, InetAddress b) {
        this.cell = cell;
        this.config = config;
        Impairment ia = impairment(cell.fromA(), seed);
        Impairment ib = impairment(cell.fromB(), seed ^ 0x5DEECE66DL);
        this.impairmentA = ia == null ? "none" : ia.toString();
        this.impairmentB = ib == null ? "none" : ib.toString();
        ctxA = device("chaos_a", a, ia).open();
        ctxB = device("chaos_b", b, ib).open();
        ProtectionDomain pdA = ctxA.allocPd();
        ProtectionDomain pdB = ctxB.allocPd();
        cqA = ctxA.createCq(4 * config.window() + 8, null);
        cqB = ctxB.createCq(4 * config.window() + 8, null);
        long slots = (long) config.window() * config.size();
        // A: send/write source slots, then read destination slots. B: receive slots, write
        // target slots, read source slots, and the atomic counter at the very end.
        aData = arena.allocate(2 * slots, 4096);
        aAtomics = arena.allocate(8L * config.messages() * ATOMICS_PER_MESSAGE, 8);
        bData = arena.allocate(3 * slots + 8, 4096);
        int local = AccessFlags.LOCAL_WRITE;
        int remote = local | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        mrAData = pdA.registerMemory(aData, local, arena);
        mrAAtomics = pdA.registerMemory(aAtomics, local, arena);
        mrBData = pdB.registerMemory(bData, remote, arena);
        QpCap cap = new QpCap(2 * config.window(), 2 * config.window(), 1, 1, 0);
        qpA = pdA.createQp(new QpInitAttr().cq(cqA).cap(cap));
        qpB = pdB.createQp(new QpInitAttr().cq(cqB).cap(cap));
        connect(qpA, ctxA, qpB.qpNum(), ctxB, remote, 0x1000, 0x2000);
        connect(qpB, ctxB, qpA.qpNum(), ctxA, remote, 0x2000, 0x1000);
    }

    private static Impairment impairment(String text, long seed) {
        return text.isEmpty() ? null : Impairment.parse(text + ",seed=" + seed);
    }

    /**
     * A device on a fresh address that no other process can name: its counters stay private
     * (the cell reads them from the context), so a run leaves no file per device name in the
     * shared stats directory.
     */
    private static SoftDevice device(String name, InetAddress address, Impairment impairment) {
        SoftOptions options = SoftOptions.defaults().privateCounters();
        if (impairment != null) {
            options = options.impairment(impairment);
        }
        return new SoftDevice(new SoftDeviceSpec(name + "_" + address.getHostAddress().replace('.', '_'), address, 65536,
                false), options);
    }

    private void connect(QueuePair qp, Context ctx, int remoteQpn, Context peer, int access, int sqPsn, int rqPsn) {
        // rc_pingpong's walk with the cell's ACK timeout and retry count (ChaosConfig), eight
        // READs/atomics each way and RNR timer code 1 (10 µs, the shortest).
        QpWalk.rcPingpong(QpType.RC).accessFlags(access).pathMtu(config.mtu()).destQpNum(remoteQpn).rqPsn(rqPsn)
                .ahAttr(AhAttr.roce(peer.queryGid(1, 0), 0, 1)).maxDestRdAtomic(8).minRnrTimer(1).sqPsn(sqPsn)
                .timeout(config.timeout()).retryCnt(config.retryCnt()).maxRdAtomic(8).toRts(qp);
    }

    private SoftContext soft(Context ctx) {
        return (SoftContext) ctx;
    }

    CellResult run() {
        start = System.nanoTime();
        if (cell.partition() == ChaosCell.Partition.NO_HEAL) {
            partitionStart = System.nanoTime();
            soft(ctxA).setPortActive(false);
        }
        boolean ok = sends() && writes() && reads() && atomics();
        long nanos = System.nanoTime() - start;
        if (!ok && error == null) {
            error = "DEADLINE";
        }
        return new CellResult(cell, impairmentA, impairmentB, bytes, nanos, verified && ok, error, errorNanos, counters());
    }

    private Map<String, Long> counters() {
        Map<String, Long> sum = new LinkedHashMap<>(soft(ctxA).counters());
        soft(ctxB).counters().forEach((k, v) -> sum.merge(k, v, Long::sum));
        return sum;
    }

    // ------------------------------------------------------------------ the four phases

    private long slot(long i) {
        return (i % config.window()) * config.size();
    }

    /** SENDs from A's slots into receives on B; each message is checked as it lands. */
    private boolean sends() {
        int n = config.messages();
        for (int r = 0; r < 2 * config.window(); r++) {
            postRecv(r);
        }
        long[] received = {0};
        return window(n, i -> {
            fill(aData, slot(i), i, 1);
            sge.set(mrAData.addr() + slot(i), config.size(), mrAData.lkey());
            qpA.postSend(send.wrId(i).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(sge));
        }, () -> {
            while (cqB.poll(wc) == 1) {
                if (!ok(wc[0])) {
                    return false;
                }
                int r = (int) wc[0].wrId;
                // Receives complete in order: message number `received` landed in receive slot r.
                verify(bData, (long) r * config.size(), received[0], 1, wc[0].byteLen);
                received[0]++;
                postRecv(r);
                bytes += config.size();
            }
            return true;
        }) && drainReceives(n, received);
    }

    private boolean drainReceives(int n, long[] received) {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (received[0] < n) {
            if (cqB.poll(wc) == 1) {
                if (!ok(wc[0])) {
                    return false;
                }
                verify(bData, wc[0].wrId * config.size(), received[0], 1, wc[0].byteLen);
                received[0]++;
                bytes += config.size();
            } else if (System.nanoTime() > deadline) {
                return false;
            }
        }
        return true;
    }

    /** B's receive area is its first 2 × window slots; receive slot r is reposted as it completes. */
    private void postRecv(int r) {
        recvSge.set(mrBData.addr() + (long) r * config.size(), config.size(), mrBData.lkey());
        qpB.postRecv(recv.wrId(r).sg(recvSge));
    }

    /** RDMA WRITEs into B's write slots; each slot is checked when its WRITE completes. */
    private boolean writes() {
        long base = 2L * config.window() * config.size();
        int n = config.messages();
        return windowChecked(n, i -> {
            fill(aData, slot(i), i, 2);
            sge.set(mrAData.addr() + slot(i), config.size(), mrAData.lkey());
            qpA.postSend(send.wrId(i).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).sg(sge)
                    .rdma(mrBData.addr() + base + slot(i), mrBData.rkey()));
            maybePartition(i, n);
        }, i -> {
            verify(bData, base + slot(i), i, 2, config.size());
            bytes += config.size();
        });
    }

    /** RDMA READs of B's write slots (as the WRITEs left them) into A's cleared read slots. */
    private boolean reads() {
        long source = 2L * config.window() * config.size();
        long dest = (long) config.window() * config.size();
        int n = config.messages();
        int w = config.window();
        long lastWrite = config.messages() - 1L;
        return windowChecked(n, i -> {
            aData.asSlice(dest + slot(i), config.size()).fill((byte) 0);
            sge.set(mrAData.addr() + dest + slot(i), config.size(), mrAData.lkey());
            qpA.postSend(send.wrId(i).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED).sg(sge)
                    .rdma(mrBData.addr() + source + slot(i), mrBData.rkey()));
        }, i -> {
            // B's slot s holds the last WRITE that used it: the largest j ≤ lastWrite with j ≡ s.
            long s = i % w;
            long wrote = lastWrite - ((lastWrite - s) % w);
            verify(aData, dest + slot(i), wrote, 2, config.size());
            bytes += config.size();
        });
    }

    /** FETCH_ADD +1 on B's counter: the originals must be 0, 1, 2 … and the total exact. */
    private boolean atomics() {
        long counter = 3L * config.window() * config.size();
        int n = config.messages() * ATOMICS_PER_MESSAGE;
        boolean ok = windowChecked(n, i -> {
            sge.set(mrAAtomics.addr() + 8L * i, 8, mrAAtomics.lkey());
            qpA.postSend(send.wrId(i).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).flags(SendFlags.SIGNALED).sg(sge)
                    .atomic(mrBData.addr() + counter, mrBData.rkey(), 1, 0));
        }, i -> {
            if (aAtomics.get(ValueLayout.JAVA_LONG, 8L * i) != i) {
                verified = false;
            }
        });
        if (ok && bData.get(ValueLayout.JAVA_LONG, counter) != n) {
            verified = false;
        }
        return ok;
    }

    // ------------------------------------------------------------------ the window

    private interface Post {
        void post(long i);
    }

    private interface Check {
        void check(long i);
    }

    private interface Poll {
        boolean poll();
    }

    /** Keeps {@code window} operations on A outstanding until {@code n} completed; checks each. */
    private boolean windowChecked(int n, Post post, Check check) {
        return window(n, post, () -> true, check);
    }

    private boolean window(int n, Post post, Poll also) {
        return window(n, post, also, i -> { });
    }

    private boolean window(int n, Post post, Poll also, Check check) {
        long posted = 0;
        long completed = 0;
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (completed < n) {
            while (posted < n && posted - completed < config.window()) {
                post.post(posted++);
            }
            if (cqA.poll(wc) == 1) {
                if (!ok(wc[0])) {
                    return false;
                }
                check.check(wc[0].wrId);
                completed++;
            }
            if (!also.poll()) {
                return false;
            }
            healIfDue();
            if (System.nanoTime() > deadline) {
                return false;
            }
        }
        return true;
    }

    private boolean ok(WorkCompletion c) {
        if (c.status == WcStatus.SUCCESS) {
            return true;
        }
        error = c.status.name();
        errorNanos = System.nanoTime() - (partitionStart != 0 ? partitionStart : start);
        return false;
    }

    // ------------------------------------------------------------------ the partition

    private long timeoutsAtCut = -1;

    /** HEAL: halfway through the WRITEs, A's port goes down. */
    private void maybePartition(long i, int n) {
        if (cell.partition() == ChaosCell.Partition.HEAL && i == n / 2 && timeoutsAtCut < 0) {
            timeoutsAtCut = soft(ctxA).counters().get("retry_timeouts");
            partitionStart = System.nanoTime();
            soft(ctxA).setPortActive(false);
        }
    }

    /** …and comes back after two retransmit timeouts: well within retry_cnt 7. */
    private void healIfDue() {
        if (timeoutsAtCut >= 0 && !soft(ctxA).portActive()
                && soft(ctxA).counters().get("retry_timeouts") >= timeoutsAtCut + 2) {
            soft(ctxA).setPortActive(true);
        }
    }

    // ------------------------------------------------------------------ data

    private static long word(long message, int salt, long index) {
        long x = (message << 20) ^ ((long) salt << 56) ^ index;
        x *= 0x9E3779B97F4A7C15L;
        return x ^ (x >>> 31);
    }

    private void fill(MemorySegment seg, long offset, long message, int salt) {
        for (long i = 0; i + 8 <= config.size(); i += 8) {
            seg.set(ValueLayout.JAVA_LONG_UNALIGNED, offset + i, word(message, salt, i));
        }
    }

    private void verify(MemorySegment seg, long offset, long message, int salt, int length) {
        if (length != config.size()) {
            verified = false;
            return;
        }
        for (long i = 0; i + 8 <= config.size(); i += 8) {
            if (seg.get(ValueLayout.JAVA_LONG_UNALIGNED, offset + i) != word(message, salt, i)) {
                verified = false;
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            ctxA.close();
        } finally {
            try {
                ctxB.close();
            } finally {
                arena.close();
            }
        }
    }
}
