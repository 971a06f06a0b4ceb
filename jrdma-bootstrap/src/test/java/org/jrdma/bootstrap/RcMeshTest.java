package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** RcMesh on a soft device: N ranks (threads) connect every pair through a rendezvous and WRITE into each other. */
class RcMeshTest {
    private static final int RANKS = 4;
    private static final int SLOT = 256;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void everyRankWritesIntoEveryPeersExposedRegionOverItsOwnQp() throws Exception {
        Device device = SoftDevices.free("mesh");
        MemoryBoard board = new MemoryBoard(RANKS);
        ExecutorService ranks = Executors.newFixedThreadPool(RANKS);
        try {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                int rank = r;
                results.add(ranks.submit(() -> runRank(device, board.join(rank, WAIT))));
            }
            for (int r = 0; r < RANKS; r++) {
                byte[] got = results.get(r).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                for (int from = 0; from < RANKS; from++) {
                    byte[] slot = java.util.Arrays.copyOfRange(got, from * SLOT, (from + 1) * SLOT);
                    assertThat(slot).as("rank %d's slot for rank %d", r, from)
                            .isEqualTo(from == r ? new byte[SLOT] : pattern(from, r));
                }
            }
        } finally {
            ranks.shutdownNow();
        }
    }

    /** One rank: connect, WRITE pattern(me, peer) into each peer's slot for me, meet, and return its own region. */
    private static byte[] runRank(Device device, Rendezvous rv) {
        int me = rv.spec().rank();
        try (Arena arena = Arena.ofShared(); Context ctx = device.open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(64, null);
            MemoryRegion exposed = pd.registerMemory(arena.allocate((long) SLOT * RANKS, 8),
                    AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, arena);
            MemoryRegion out = pd.registerMemory(arena.allocate((long) SLOT * RANKS, 8), AccessFlags.LOCAL_WRITE, arena);
            try (RcMesh mesh = RcMesh.connect(pd, rv, RcOptions.defaults(cq).exposing(exposed))) {
                assertThat(mesh.connections().keySet()).hasSize(RANKS - 1).doesNotContain(me);
                rv.barrier("connected");
                for (var e : mesh.connections().entrySet()) {
                    int peer = e.getKey();
                    MemorySegment src = out.segment().asSlice((long) peer * SLOT, SLOT);
                    src.copyFrom(MemorySegment.ofArray(pattern(me, peer)));
                    RemoteBuffer target = e.getValue().remoteBuffer();
                    e.getValue().qp().postSend(new SendWorkRequest().wrId(peer).opcode(WrOpcode.RDMA_WRITE)
                            .flags(SendFlags.SIGNALED).sg(new Sge(src.address(), SLOT, out.lkey()))
                            .rdma(target.address() + (long) me * SLOT, target.rkey()));
                }
                for (int done = 0; done < RANKS - 1; done++) {
                    assertThat(next(cq).status).isEqualTo(WcStatus.SUCCESS);
                }
                rv.barrier("written");   // every peer's WRITE into this rank has completed at its sender
                return exposed.segment().toArray(ValueLayout.JAVA_BYTE);
            }
        }
    }

    /** A failed wait destroys every QP the mesh made, and the error is the rendezvous's. */
    @Test
    void aMissingRankLeavesNoQpBehind() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        Rendezvous alone = new MemoryBoard(3).join(0, Duration.ofMillis(50));
        assertThatThrownBy(() -> RcMesh.connect(verbs.pd, alone, RcOptions.defaults(verbs.cq)))
                .isInstanceOfSatisfying(MissingRanksException.class, e -> assertThat(e.neverCame()).containsExactly(1, 2));
        assertThat(verbs.qps).hasSize(2).allSatisfy(qp -> {
            assertThat(qp.closed).isTrue();
            assertThat(qp.states).isEmpty();
        });
    }

    @Test
    void eachQpIsWalkedWithTheInfoItsPeerPublishedForIt() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        MemoryBoard board = new MemoryBoard(3);
        Rendezvous one = board.join(1, WAIT);
        Rendezvous zero = board.join(0, WAIT);
        Rendezvous two = board.join(2, WAIT);
        zero.publish(java.util.Map.of(1, TestInfos.CLIENT.withBuffer(new RemoteBuffer(0x1000, 7)), 2, TestInfos.CLIENT));
        two.publish(java.util.Map.of(0, TestInfos.SERVER, 1, TestInfos.SERVER));
        try (RcMesh mesh = RcMesh.connect(verbs.pd, one, RcOptions.defaults(verbs.cq))) {
            assertThat(mesh.rank()).isEqualTo(1);
            assertThat(mesh.connection(0).remote()).isEqualTo(TestInfos.CLIENT.withBuffer(new RemoteBuffer(0x1000, 7)));
            assertThat(mesh.connection(2).remote()).isEqualTo(TestInfos.SERVER);
            assertThatThrownBy(() -> mesh.connection(1)).hasMessageContaining("no connection to rank 1");
            assertThat(verbs.qps).hasSize(2).allSatisfy(qp ->
                    assertThat(qp.states).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS));
            assertThat(verbs.qps.get(0).attrs.get(1).destQpNum()).isEqualTo(TestInfos.CLIENT.qpn());
            assertThat(verbs.qps.get(1).attrs.get(1).destQpNum()).isEqualTo(TestInfos.SERVER.qpn());
        }
        assertThat(verbs.qps).allSatisfy(qp -> assertThat(qp.closed).isTrue());
    }

    @Test
    void onlyRcMakesAMesh() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        assertThatThrownBy(() -> RcMesh.connect(verbs.pd, new MemoryBoard(2).join(0, WAIT),
                RcOptions.defaults(verbs.cq).withQpType(QpType.UC))).isInstanceOf(IllegalArgumentException.class);
        assertThat(verbs.qps).isEmpty();
    }

    private static byte[] pattern(int from, int to) {
        byte[] b = new byte[SLOT];
        new java.util.Random(from * 1000L + to).nextBytes(b);
        return b;
    }

    private static WorkCompletion next(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long end = System.nanoTime() + WAIT.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > end) {
                throw new AssertionError("no completion within " + WAIT);
            }
            Thread.onSpinWait();
        }
        return wc[0];
    }
}
