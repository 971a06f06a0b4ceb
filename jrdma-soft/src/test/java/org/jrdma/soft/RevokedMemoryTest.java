package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Memory taken away while the transport uses it (RELIABILITY-SECURITY SEC-46, SEC-47):
 * a region deregistered in the middle of a READ reply or a multi-packet WRITE, and a buffer
 * whose {@link Arena} the application closes while it is still registered (ReDMArk A6: freed
 * memory must not stay reachable). The engine is stepped by the test (INVOKER), so "in the
 * middle" is exact rather than a race with a thread. Every case ends in a clean error — the
 * remote side REM_ACCESS_ERR, the local side LOC_PROT_ERR — not an exception out of the engine,
 * not a crashed JVM, and not one byte read from or written to the gone memory.
 */
class RevokedMemoryTest {
    private static final int BIG = 4 << 20;
    private static final long STEPS = 2_000_000;

    private static RcPair pair(String name) {
        SoftDevice dev = FreshDevices.fresh(name, SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        return new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, BIG, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 4);
    }

    /** Steps the engine until {@code cq} yields a completion. */
    private static WorkCompletion step(RcPair p, CompletionQueue cq, String what) {
        WorkCompletion[] one = {new WorkCompletion()};
        for (long i = 0; i < STEPS; i++) {
            p.hca().doWork();
            if (cq.poll(one) == 1) {
                return one[0];
            }
        }
        throw new AssertionError("no completion for " + what);
    }

    /** Steps the engine until byte {@code at} of {@code seg} is not 0: the transfer is under way. */
    private static void stepUntilLanded(RcPair p, MemorySegment seg, long at) {
        for (long i = 0; i < STEPS && seg.get(ValueLayout.JAVA_BYTE, at) == 0; i++) {
            p.hca().doWork();
        }
        assertThat(seg.get(ValueLayout.JAVA_BYTE, at)).as("the first bytes arrived").isNotZero();
    }

    private static void fillNonZero(MemorySegment seg) {
        seg.fill((byte) 0x5A);
    }

    /**
     * The SEC-47 mid-transfer case both sides share: a BIG {@code op} between a's {@code local} and b's
     * {@code remote} (source non-zero, target zero), {@code gone} closed once the first bytes landed; the WR's status.
     */
    private static WcStatus closeArenaMidTransfer(RcPair p, WrOpcode op, MemoryRegion local, MemoryRegion remote,
            Arena gone) {
        boolean read = op == WrOpcode.RDMA_READ;
        MemorySegment target = read ? local.segment() : remote.segment();
        fillNonZero(read ? remote.segment() : local.segment());
        target.fill((byte) 0);
        p.a.postSend(new SendWorkRequest().wrId(1).opcode(op).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local, 0, BIG)).rdma(remote.addr(), remote.rkey()));
        stepUntilLanded(p, target, 0);
        gone.close();
        return step(p, p.cqA, op.name()).status;
    }

    /**
     * SEC-46: a 4 MiB READ; the responder's region is deregistered after the first response
     * landed. The reply stops (rxe rxe_recheck_mr), the READ fails with REM_ACCESS_ERR, and the
     * bytes the requester got are only those sent before the deregistration.
     */
    @Test
    void sec46DeregisterDuringAReadStopsTheReplyAndFailsTheRead() {
        try (RcPair p = pair("dereg-read")) {
            fillNonZero(p.bufB);
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, BIG)).rdma(p.mrB.addr(), p.mrB.rkey()));
            stepUntilLanded(p, p.bufA, 0);
            p.mrB.close();
            WorkCompletion wc = step(p, p.cqA, "the READ");
            assertThat(wc.status).as("the READ after the deregistration").isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.bufA.get(ValueLayout.JAVA_BYTE, BIG - 1)).as("the READ's last byte never came").isZero();
            assertThat(p.b.query().qpState()).isEqualTo(QpState.ERR);
        }
    }

    /** SEC-46 for a WRITE: packets after the deregistration do not land; the WRITE fails. */
    @Test
    void sec46DeregisterDuringAMultiPacketWriteStopsItLanding() {
        try (RcPair p = pair("dereg-write")) {
            fillNonZero(p.bufA);
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, BIG)).rdma(p.mrB.addr(), p.mrB.rkey()));
            stepUntilLanded(p, p.bufB, 0);
            p.mrB.close();
            long landed = p.bufB.mismatch(p.bufA);
            WorkCompletion wc = step(p, p.cqA, "the WRITE");
            assertThat(wc.status).as("the WRITE after the deregistration").isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, BIG - 1)).as("the WRITE's last byte").isZero();
            assertThat(p.bufB.mismatch(p.bufA)).as("bytes landed after the deregistration").isEqualTo(landed);
        }
    }

    enum Remote { RDMA_WRITE, RDMA_READ, ATOMIC_FETCH_AND_ADD }

    /** SEC-47: a buffer whose Arena was closed while registered: remote access fails, nothing is read. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Remote.class)
    void sec47ClosedArenaOfARegisteredBufferIsRemotelyUnreachable(Remote op) {
        try (RcPair p = pair("closed-remote")) {
            Arena gone = Arena.ofShared();
            MemorySegment buf = gone.allocate(4096, 64);
            fillNonZero(buf);
            MemoryRegion mr = p.pd.registerMemory(buf, RcPair.REMOTE_ALL);
            gone.close(); // the MR is still registered
            SendWorkRequest wr = new SendWorkRequest().wrId(1).opcode(WrOpcode.valueOf(op.name())).flags(SendFlags.SIGNALED);
            if (op == Remote.ATOMIC_FETCH_AND_ADD) {
                wr.sg(Sge.of(p.mrA, 0, 8)).atomic(mr.addr(), mr.rkey(), 1, 0);
            } else {
                wr.sg(Sge.of(p.mrA, 0, 64)).rdma(mr.addr(), mr.rkey());
            }
            p.a.postSend(wr);
            assertThat(step(p, p.cqA, op.name()).status).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.bufA.get(ValueLayout.JAVA_BYTE, 0)).as("nothing read from the freed buffer").isZero();
            mr.close();
        }
    }

    /** SEC-47, local side: a SEND gathering from a closed buffer completes with LOC_PROT_ERR. */
    @Test
    void sec47ClosedArenaOfALocalBufferFailsTheSendWithLocalProtectionError() {
        try (RcPair p = pair("closed-local")) {
            Arena gone = Arena.ofShared();
            MemoryRegion mr = p.pd.registerMemory(gone.allocate(4096, 64), RcPair.REMOTE_ALL);
            gone.close();
            p.postRecv(9, 0, 64);
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(mr, 0, 64)));
            assertThat(step(p, p.cqA, "the SEND").status).isEqualTo(WcStatus.LOC_PROT_ERR);
            mr.close();
        }
    }

    /** SEC-47, receive side: a receive into a closed buffer fails LOC_PROT_ERR, the sender REM_OP_ERR. */
    @Test
    void sec47ClosedArenaOfAReceiveBufferFailsTheReceive() {
        try (RcPair p = pair("closed-recv")) {
            Arena gone = Arena.ofShared();
            MemoryRegion mr = p.pd.registerMemory(gone.allocate(4096, 64), RcPair.REMOTE_ALL);
            p.b.postRecv(new RecvWorkRequest().wrId(9).sg(Sge.of(mr, 0, 64)));
            gone.close();
            p.send(1, 0, 64);
            assertThat(step(p, p.cqB, "the receive").status).isEqualTo(WcStatus.LOC_PROT_ERR);
            assertThat(step(p, p.cqA, "the SEND").status).isEqualTo(WcStatus.REM_OP_ERR);
            mr.close();
        }
    }

    /**
     * SEC-47 in the middle of a transfer: the Arena of the READ's source, then of the WRITE's
     * target, is closed after the first bytes moved. The engine must not throw (a closed
     * segment throws IllegalStateException on access) and the WR fails with REM_ACCESS_ERR.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_READ", "RDMA_WRITE"})
    void sec47ArenaClosedMidTransferFailsTheTransferCleanly(WrOpcode op) {
        try (RcPair p = pair("closed-mid")) {
            Arena gone = Arena.ofShared();
            MemoryRegion mr = p.pd.registerMemory(gone.allocate(BIG, 64), RcPair.REMOTE_ALL);
            assertThat(closeArenaMidTransfer(p, op, p.mrA, mr, gone)).isEqualTo(WcStatus.REM_ACCESS_ERR);
            if (op == WrOpcode.RDMA_READ) {
                assertThat(p.bufA.get(ValueLayout.JAVA_BYTE, BIG - 1)).as("the READ's last byte never came").isZero();
            }
            mr.close();
        }
    }

    /**
     * SEC-47, local side in the middle of a transfer: the Arena of the WRITE's source, then of
     * the READ's destination, is closed after the first bytes moved. The WR completes with
     * LOC_PROT_ERR (the local memory is gone), the engine does not throw.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_READ", "RDMA_WRITE"})
    void sec47LocalArenaClosedMidTransferFailsWithLocalProtectionError(WrOpcode op) {
        try (RcPair p = pair("closed-mid-local")) {
            Arena gone = Arena.ofShared();
            MemoryRegion mr = p.pd.registerMemory(gone.allocate(BIG, 64), RcPair.REMOTE_ALL);
            assertThat(closeArenaMidTransfer(p, op, mr, p.mrB, gone)).isEqualTo(WcStatus.LOC_PROT_ERR);
            if (op == WrOpcode.RDMA_WRITE) {
                assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, BIG - 1)).as("the WRITE's last byte").isZero();
            }
            mr.close();
        }
    }
}
