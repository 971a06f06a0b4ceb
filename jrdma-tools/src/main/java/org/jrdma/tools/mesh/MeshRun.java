package org.jrdma.tools.mesh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcMesh;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * One rank of {@code jrdma mesh}, start to end: join the job in the store, connect an RC QP to
 * every peer ({@link RcMesh}), meet at barrier "connected", prove every pair, report to rank 0,
 * meet at barrier "done", leave.
 *
 * <p>The proof of pair (i, j): rank i WRITEs {@link #pattern} (i, j) into slot i of j's exposed
 * region and then SENDs "written" on the same QP; RC delivers in order, so when j receives the
 * SEND the WRITE is in place, and j compares the slot byte for byte. Each rank then SENDs its
 * row of verdicts to rank 0, which holds the matrix. The patterns depend on the epoch, so a
 * region left over from an earlier run could not pass.
 */
final class MeshRun {
    /** Receives per QP: "written" from the peer, and at rank 0 the peer's row. */
    private static final int RECVS_PER_QP = 2;
    private static final int WRITTEN = 0;
    private static final int ROW = 1;
    /** Peers proven at once by one rank (see connectAndProve). */
    private static final int WINDOW = 16;

    private final MeshConfig config;
    private final Consumer<String> notices;
    private final RendezvousStore sharedStore;
    private final Runnable beforeDone;

    /** A rank with a store of its own, opened from the config (the tool's case). */
    MeshRun(MeshConfig config, Consumer<String> notices) {
        this(config, notices, null, () -> { });
    }

    /**
     * A rank that joins through {@code store}, which the caller opened and closes (many ranks in
     * one JVM); {@code beforeDone} runs once this rank is proven, its resources still open.
     */
    MeshRun(MeshConfig config, Consumer<String> notices, RendezvousStore store, Runnable beforeDone) {
        this.config = config;
        this.notices = notices;
        this.sharedStore = store;
        this.beforeDone = beforeDone;
    }

    MeshResult run() {
        long start = System.nanoTime();
        RendezvousStore store = sharedStore != null ? sharedStore : RendezvousStores.open(config.store(), config.options());
        try (Rendezvous rv = store.join(config.spec())) {
            Map<String, Long> phases = new LinkedHashMap<>();
            phases.put("join", System.nanoTime() - start);
            return connectAndProve(store.address(), rv, phases);
        } finally {
            if (sharedStore == null) {
                store.close();
            }
        }
    }

    private MeshResult connectAndProve(String address, Rendezvous rv, Map<String, Long> phases) {
        int n = config.size();
        int me = config.rank();
        int slot = config.slot();
        int rowBytes = Math.max(8, n);
        long deadline = System.nanoTime() + config.spec().timeout().toNanos();
        Device device = Verbs.device(config.device());
        try (Context ctx = device.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionChannel channel = ctx.createCompChannel();
            CompletionQueue cq = ctx.createCq(Math.max(16, 4 * n), channel);
            // the regions peers write into: the device's own memory (shm: a memfd peers map)
            MemoryRegion exposed = pd.registerMemory(ctx.allocateMemory((long) n * slot, arena),
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, arena);
            MemoryRegion out = pd.registerMemory(arena.allocate((long) n * slot, 64), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion messages = pd.registerMemory(arena.allocate((long) (n + 1) * rowBytes, 8), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion recvs = pd.registerMemory(ctx.allocateMemory((long) n * RECVS_PER_QP * rowBytes, arena),
                    AccessFlags.LOCAL_WRITE, arena);
            // A QP's receives are posted at INIT, before its peer can send; they land in the
            // receive slots of the QP's index, which is mapped to its peer once all are made.
            Map<Integer, Integer> indexOfQpn = new HashMap<>();
            RcOptions o = RcOptions.defaults(cq).withGidIndex(config.gidIndex()).withTimeout(config.qpTimeout()).withCap(new QpCap(4, RECVS_PER_QP, 1, 1, 0))
                    .exposing(exposed).onInit(qp -> {
                        int k = indexOfQpn.size();
                        indexOfQpn.put(qp.qpNum(), k);
                        for (int i = 0; i < RECVS_PER_QP; i++) {
                            long at = (long) (k * RECVS_PER_QP + i) * rowBytes;
                            qp.postRecv(new RecvWorkRequest().wrId(k * RECVS_PER_QP + i)
                                    .sg(new Sge(recvs.addr() + at, rowBytes, recvs.lkey())));
                        }
                    });
            try (RcMesh mesh = RcMesh.connect(pd, rv, o)) {
                RcMesh.Phases p = mesh.phases();
                phases.put("qps", p.createNanos());
                phases.put("publish", p.publishNanos());
                phases.put("exchange", p.awaitNanos());
                phases.put("connect", p.connectNanos());
                long t = System.nanoTime();
                rv.barrier("connected");
                phases.put("barrier", System.nanoTime() - t);
                Map<Integer, Integer> peerOfQpn = new HashMap<>();
                int[] peerOfIndex = new int[n];
                for (Map.Entry<Integer, RcConnection> e : mesh.connections().entrySet()) {
                    int qpn = e.getValue().qp().qpNum();
                    peerOfQpn.put(qpn, e.getKey());
                    peerOfIndex[indexOfQpn.get(qpn)] = e.getKey();
                }
                MeshCompletions completions = new MeshCompletions(cq, channel,
                        qpn -> "rank " + peerOfQpn.getOrDefault(qpn, -1));
                Proof proof = new Proof(n, me, rv.epoch(), slot, rowBytes, exposed, recvs, peerOfIndex);

                t = System.nanoTime();
                // Peers in turn from this rank's successor on, at most WINDOW at once: every rank
                // starting at rank 0 with all N - 1 at once is N² messages in one burst, which one
                // soft device (one socket) serving many ranks drops and retransmits in a storm.
                int next = 1;
                int inFlight = 0;
                while (next < n && inFlight < WINDOW) {
                    postProof(mesh.connection((me + next++) % n), (me + next - 1) % n, me, slot, rowBytes, rv.epoch(), out, messages);
                    inFlight++;
                }
                while (inFlight > 0 || proof.writtenSeen < n - 1) {
                    if (proof.take(completions.next(deadline, "the WRITEs to and from every peer")) == 1) {
                        inFlight--;
                        if (next < n) {
                            postProof(mesh.connection((me + next++) % n), (me + next - 1) % n, me, slot, rowBytes, rv.epoch(), out,
                                    messages);
                            inFlight++;
                        }
                    }
                }
                phases.put("verify", System.nanoTime() - t);

                t = System.nanoTime();
                if (me != 0) {
                    MemorySegment row = messages.segment().asSlice((long) n * rowBytes, rowBytes);
                    for (int i = 0; i < n; i++) {
                        row.set(ValueLayout.JAVA_BYTE, i, (byte) (proof.row[i] ? 1 : 0));
                    }
                    mesh.connection(0).qp().postSend(new SendWorkRequest().wrId(0).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                            .sg(new Sge(messages.addr() + (long) n * rowBytes, n, messages.lkey())));
                    while (proof.take(completions.next(deadline, "this rank's row to rank 0")) == 0) {
                        // a receive: none is due here, but take() counts what it is
                    }
                } else {
                    while (proof.rowsSeen < n - 1) {
                        proof.take(completions.next(deadline, "the rows of every rank"));
                    }
                }
                phases.put("report", System.nanoTime() - t);
                beforeDone.run();
                t = System.nanoTime();
                rv.barrier("done");
                phases.put("done", System.nanoTime() - t);
                if (!proof.allWell()) {
                    notices.accept("rank " + me + ": some pair did not verify (see the matrix on rank 0)");
                }
                return new MeshResult(address, rv.epoch(), device.name(), phases, rv.traffic(), proof.row,
                        me == 0 ? proof.matrix : null);
            }
        }
    }

    /**
     * WRITE pattern(me, peer) into slot {@code me} of the peer's region, then SEND "written" on the
     * same QP; only the SEND is signaled: RC completes them in order, and an error in the WRITE
     * completes it with its status anyway.
     */
    private static void postProof(RcConnection c, int peer, int me, int slot, int rowBytes, long epoch, MemoryRegion out,
            MemoryRegion messages) {
        MemorySegment src = out.segment().asSlice((long) peer * slot, slot);
        src.copyFrom(MemorySegment.ofArray(pattern(epoch, me, peer, slot)));
        messages.segment().set(ValueLayout.JAVA_INT_UNALIGNED, (long) peer * rowBytes, me);
        RemoteBuffer target = c.remoteBuffer();
        SendWorkRequest write = new SendWorkRequest().wrId(peer).opcode(WrOpcode.RDMA_WRITE)
                .sg(new Sge(src.address(), slot, out.lkey())).rdma(target.address() + (long) me * slot, target.rkey());
        SendWorkRequest written = new SendWorkRequest().wrId(peer).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(new Sge(messages.addr() + (long) peer * rowBytes, 4, messages.lkey()));
        c.qp().postSend(write.next(written));
    }

    /**
     * The bytes rank {@code from} writes into rank {@code to}'s slot in run {@code epoch}: a
     * seeded sequence (SplitMix64 of the three), so each pair and each run has its own.
     */
    static byte[] pattern(long epoch, int from, int to, int length) {
        byte[] b = new byte[length];
        long x = epoch * 0x9E3779B97F4A7C15L ^ ((long) from << 32 | to);
        for (int i = 0; i < length; i++) {
            if ((i & 7) == 0) {
                x += 0x9E3779B97F4A7C15L;
                long z = x;
                z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
                z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
                x = z ^ (z >>> 31);
            }
            b[i] = (byte) (x >>> ((i & 7) * 8));
        }
        return b;
    }

    /** The receiving side of the proof: the "written" SENDs checked against the slots, and at rank 0 the rows. */
    private static final class Proof {
        final boolean[] row;
        final boolean[][] matrix;
        int writtenSeen;
        int rowsSeen;
        private final int n;
        private final int me;
        private final long epoch;
        private final int slot;
        private final int rowBytes;
        private final MemoryRegion exposed;
        private final MemoryRegion recvs;
        private final int[] peerOfIndex;

        Proof(int n, int me, long epoch, int slot, int rowBytes, MemoryRegion exposed, MemoryRegion recvs, int[] peerOfIndex) {
            this.n = n;
            this.me = me;
            this.epoch = epoch;
            this.slot = slot;
            this.rowBytes = rowBytes;
            this.exposed = exposed;
            this.recvs = recvs;
            this.peerOfIndex = peerOfIndex;
            row = new boolean[n];
            row[me] = true;
            matrix = me == 0 ? new boolean[n][] : null;
            if (matrix != null) {
                matrix[0] = row;
            }
        }

        /** Handles one completion; returns 1 for a send's, 0 for a receive's. */
        int take(WorkCompletion wc) {
            if (wc.opcode != WcOpcode.RECV) {
                return 1;
            }
            int k = (int) (wc.wrId / RECVS_PER_QP);
            int peer = peerOfIndex[k];
            MemorySegment msg = recvs.segment().asSlice(wc.wrId * rowBytes, rowBytes);
            if (wc.wrId % RECVS_PER_QP == WRITTEN) {
                int from = msg.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                byte[] got = exposed.segment().asSlice((long) peer * slot, slot).toArray(ValueLayout.JAVA_BYTE);
                row[peer] = wc.byteLen == 4 && from == peer && java.util.Arrays.equals(got, pattern(epoch, peer, me, slot));
                writtenSeen++;
            } else if (wc.wrId % RECVS_PER_QP == ROW && matrix != null) {
                boolean[] theirs = new boolean[n];
                for (int i = 0; i < n && i < wc.byteLen; i++) {
                    theirs[i] = msg.get(ValueLayout.JAVA_BYTE, i) == 1;
                }
                matrix[peer] = theirs;
                rowsSeen++;
            }
            return 0; // a receive at a rank other than 0 past "written" is none of ours: nothing sends one
        }

        boolean allWell() {
            for (boolean ok : row) {
                if (!ok) {
                    return false;
                }
            }
            return true;
        }
    }
}
