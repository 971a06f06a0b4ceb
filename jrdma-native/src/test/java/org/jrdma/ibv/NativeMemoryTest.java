package org.jrdma.ibv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jrdma.ibv.conformance.NativeFixture;
import org.jrdma.testkit.Loopback;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * The memory rule on a device: the wrong order is refused, the right one deregisters before the
 * arena frees, a bound window does not stop that, closed objects fail typed, and a child process
 * (ProcessBuilder) leaves registered memory working. Skipped without a device.
 */
class NativeMemoryTest {
    private static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC | AccessFlags.MW_BIND;

    @Test
    void aClosableArenaIsRefusedInTheTwoArgumentFormAndAHeapSegmentInBoth() {
        try (Context ctx = NativeFixture.get().openContext(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            VerbsException e = assertThrows(VerbsException.class,
                    () -> pd.registerMemory(arena.allocate(4096), AccessFlags.LOCAL_WRITE));
            assertThat(e.errno()).isEqualTo(Errno.EINVAL);
            assertThat(e.getMessage()).contains("registerMemory(segment, access, arena)");
            assertThat(assertThrows(VerbsException.class, () -> pd.registerMemory(MemorySegment.ofArray(new byte[64]),
                    AccessFlags.LOCAL_WRITE, Arena.global())).errno()).isEqualTo(Errno.EINVAL);
            MemoryRegion auto = pd.registerMemory(Arena.ofAuto().allocate(4096), AccessFlags.LOCAL_WRITE);
            auto.close();
            pd.close();
        }
    }

    @Test
    void closingTheArenaDeregistersTheRegionEvenWithABoundWindow() {
        try (Context ctx = NativeFixture.get().openContext();
                Loopback lb = Loopback.open(ctx, NativeFixture.get().port(), NativeFixture.get().gidIndex(),
                        Loopback.Options.defaults().withMrAccess(ALL).withQpAccess(ALL))) {
            Endpoint a = lb.a();
            Arena arena = Arena.ofShared();
            MemoryRegion mr = a.pd.registerMemory(arena.allocate(4096, 4096), ALL, arena);
            MemoryWindow mw = a.pd.allocMw(MwType.TYPE_1);
            a.qp.bindMw(mw, new MwBind(mr, mr.addr(), 4096, AccessFlags.REMOTE_WRITE), 7, true);
            WorkCompletion[] wc = {new WorkCompletion()};
            awaitOne(a.sendCq, wc);
            assertThat(wc[0].ok()).as("bind: %s", wc[0]).isTrue();
            arena.close();
            // the region is gone: its lkey no longer works for a local operation
            SendWorkRequest w = new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(new Sge(mr.addr(), 64, mr.lkey())).rdma(lb.b().recvMr.addr(), lb.b().recvMr.rkey());
            a.qp.postSend(w);
            awaitOne(a.sendCq, wc);
            assertThat(wc[0].ok()).as("a WRITE from a region whose arena closed: %s", wc[0]).isFalse();
            mw.close(); // already deallocated by the arena's close: a no-op
        }
    }

    @Test
    void closedObjectsFailTyped() {
        Context ctx = NativeFixture.get().openContext();
        ProtectionDomain pd = ctx.allocPd();
        var cq = ctx.createCq(16, null);
        cq.close();
        assertThat(assertThrows(VerbsException.class, () -> cq.poll(new WorkCompletion[1])).errno())
                .isEqualTo(Errno.EINVAL);
        ctx.close();
        assertThat(assertThrows(VerbsException.class, () -> pd.allocMw(MwType.TYPE_1)).errno())
                .isEqualTo(Errno.EINVAL);
        assertThat(assertThrows(VerbsException.class, ctx::queryDevice).errno()).isEqualTo(Errno.EINVAL);
    }

    /**
     * fork(): ProcessBuilder starts a child (posix_spawn through jspawnhelper on Linux); the
     * parent's registered memory must still be what the NIC reads and writes afterwards.
     */
    @Test
    void rdmaStaysCorrectAfterStartingAProcess() throws Exception {
        System.out.println("ibv_is_fork_initialized: " + NativeProvider.forkSupport());
        try (Context ctx = NativeFixture.get().openContext();
                Loopback lb = Loopback.open(ctx, NativeFixture.get().port(), NativeFixture.get().gidIndex(),
                        Loopback.Options.defaults().withMrAccess(ALL).withQpAccess(ALL))) {
            Endpoint a = lb.a();
            Endpoint b = lb.b();
            Random random = new Random(13);
            for (int round = 0; round < 3; round++) {
                Process p = new ProcessBuilder("true").start();
                assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
                byte[] pattern = new byte[4096];
                random.nextBytes(pattern);
                MemorySegment.copy(pattern, 0, a.sendMr.segment(), ValueLayout.JAVA_BYTE, 0, pattern.length);
                a.qp.postSend(new SendWorkRequest().wrId(round).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(new Sge(a.sendMr.addr(), pattern.length, a.sendMr.lkey()))
                        .rdma(b.recvMr.addr(), b.recvMr.rkey()));
                WorkCompletion[] wc = {new WorkCompletion()};
                awaitOne(a.sendCq, wc);
                assertThat(wc[0].ok()).as("WRITE after a child process: %s", wc[0]).isTrue();
                byte[] got = b.recvMr.segment().asSlice(0, pattern.length).toArray(ValueLayout.JAVA_BYTE);
                assertThat(got).as("round %d: the bytes the NIC wrote", round).isEqualTo(pattern);
            }
        }
    }

    private static void awaitOne(org.jrdma.verbs.CompletionQueue cq, WorkCompletion[] wc) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (cq.poll(wc, 1) == 0) {
            assertThat(System.nanoTime()).as("a completion within 30 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
