package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The responder-side rows of the error tables (REL-17: RELIABILITY-SECURITY §2.2 and §2.4,
 * ROCEV2-FACTS §4.2): a bad rkey, a range outside the MR (SEC-40), an MR or a QP without the
 * remote right (SEC-41), an rkey of another PD (SEC-42), a misaligned atomic, no responder
 * resources. Each is class C: the responder NAKs and moves to ERR, the requester completes the
 * WR with REM_ACCESS_ERR (0x62) or REM_INV_REQ_ERR (0x61) — signaled or not — flushes what
 * follows and moves to ERR, and not one byte of remote memory changes. Both QPs' posted
 * receives flush. Zero-length operations (SEC-45) and the time to the error (REL-16) too.
 * SendWithTooSmallRecv is {@link SendRecvSuite}'s; local-side rows are {@link LocalErrorSuite}'s.
 */
public abstract class ErrorTableSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public ErrorTableSuite() {
    }

    private static final long BAD = 0xBAD;
    private static final long NEXT = 0x4E7;
    private static final int LEN = 64;

    /** WriteInvalidRkey and UnsignaledWriteInvalidRkey: an error CQE even for an unsignaled WR. */
    @ParameterizedTest(name = "signaled: {0}")
    @ValueSource(booleans = {true, false})
    void writeWithAnInvalidRkeyFailsWithRemoteAccessErrorAndBothQpsEndInErr(boolean signaled) {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults());
        Guarded target = guarded(lb.b().pd, 4096, ALL_REMOTE);
        int rkey = staleRkey(lb.b().pd);
        assertClassCRow(lb, write(BAD, signaled ? SendFlags.SIGNALED : 0, Sge.of(lb.a().sendMr, 0, LEN),
                target.mr().addr(), rkey), WcStatus.REM_ACCESS_ERR);
        target.assertUntouched("the WRITE's target");
    }

    /** ReadInvalidRkey: nothing comes back, the local buffer keeps its canary. */
    @Test
    void readWithAnInvalidRkeyFailsWithRemoteAccessErrorAndBothQpsEndInErr() {
        assumeOpcode(WrOpcode.RDMA_READ);
        Loopback lb = loopback(Options.defaults());
        Guarded local = guarded(lb.a().pd, LEN, ALL_REMOTE);
        assertClassCRow(lb, read(BAD, SendFlags.SIGNALED, Sge.of(local.mr()), lb.b().sendMr.addr(),
                staleRkey(lb.b().pd)), WcStatus.REM_ACCESS_ERR);
        local.assertUntouched("the READ's local buffer");
    }

    /** SEC-40 and rdma-unit-test Read/WriteExceedFront/Rear, with a 4096-byte target MR. */
    enum Range {
        /** One byte before the MR. */
        FRONT(-1, LEN),
        /** The last LEN−1 bytes of the MR and one past it. */
        REAR(4096 - LEN + 1, LEN),
        /** Starting right past the end. */
        PAST_END(4096, 1),
        /** A VA near 2^64 whose VA + length wraps around to 0. */
        WRAP(0, 2 * LEN);

        final long offset;
        final int length;

        Range(long offset, int length) {
            this.offset = offset;
            this.length = length;
        }

        long va(long mrAddr) {
            return this == WRAP ? -LEN : mrAddr + offset;
        }
    }

    /** SEC-40: a WRITE before, across the end of, past, or wrapping around the MR: REM_ACCESS_ERR, the MR and its surroundings unchanged. */
    @ParameterizedTest(name = "WRITE {0}")
    @EnumSource(Range.class)
    void writeOutsideTheMrFailsWithRemoteAccessErrorAndChangesNothing(Range range) {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults());
        Guarded target = guarded(lb.b().pd, 4096, ALL_REMOTE);
        Payload.fill(lb.a().sendMr.segment(), 1);
        assertClassCRow(lb, write(BAD, SendFlags.SIGNALED, Sge.of(lb.a().sendMr, 0, range.length),
                range.va(target.mr().addr()), target.mr().rkey()), WcStatus.REM_ACCESS_ERR);
        target.assertUntouched("the MR and the bytes around it");
    }

    /** SEC-40: the same ranges READ: REM_ACCESS_ERR, nothing returned. */
    @ParameterizedTest(name = "READ {0}")
    @EnumSource(Range.class)
    void readOutsideTheMrFailsWithRemoteAccessErrorAndReturnsNothing(Range range) {
        assumeOpcode(WrOpcode.RDMA_READ);
        Loopback lb = loopback(Options.defaults());
        Guarded source = guarded(lb.b().pd, 4096, ALL_REMOTE);
        Guarded local = guarded(lb.a().pd, range.length, ALL_REMOTE);
        Payload.fill(source.inside(), 2);
        assertClassCRow(lb, read(BAD, SendFlags.SIGNALED, Sge.of(local.mr()), range.va(source.mr().addr()),
                source.mr().rkey()), WcStatus.REM_ACCESS_ERR);
        local.assertUntouched("the READ's local buffer");
    }

    /** SEC-41, MR side: the MR lacks the right the operation needs → REM_ACCESS_ERR. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_READ", "ATOMIC_CMP_AND_SWP",
            "ATOMIC_FETCH_AND_ADD"})
    void mrWithoutTheRemoteRightFailsWithRemoteAccessError(WrOpcode op) {
        assumeOpcode(op);
        Loopback lb = loopback(Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE));
        Guarded target = guarded(lb.b().pd, 4096, ALL_REMOTE & ~rightFor(op));
        assertClassCRow(lb, op(op, lb.a(), target), WcStatus.REM_ACCESS_ERR);
        target.assertUntouched("the MR without " + AccessFlags.toString(rightFor(op)));
    }

    /** SEC-41, QP side: the responder QP's qp_access_flags lack the right → REM_INV_REQ_ERR (rxe CHK_OP_VALID). */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_READ", "ATOMIC_CMP_AND_SWP",
            "ATOMIC_FETCH_AND_ADD"})
    void qpWithoutTheRemoteRightFailsWithRemoteInvalidRequest(WrOpcode op) {
        assumeOpcode(op);
        Loopback lb = loopback(Options.defaults().withQpAccess(ALL_REMOTE & ~rightFor(op)).withMrAccess(ALL_REMOTE));
        Guarded target = guarded(lb.b().pd, 4096, ALL_REMOTE);
        assertClassCRow(lb, op(op, lb.a(), target), WcStatus.REM_INV_REQ_ERR);
        target.assertUntouched("the MR behind a QP without " + AccessFlags.toString(rightFor(op)));
    }

    /** SEC-42: an rkey from another PD of the responder's context is refused (do not copy rxe). */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_READ", "ATOMIC_FETCH_AND_ADD"})
    void rkeyOfAnMrInAnotherPdFailsWithRemoteAccessError(WrOpcode op) {
        assumeOpcode(op);
        Loopback lb = loopback(Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE));
        ProtectionDomain otherPd = track(lb.b().context.allocPd());
        Guarded target = guarded(otherPd, 4096, ALL_REMOTE);
        assertClassCRow(lb, op(op, lb.a(), target), WcStatus.REM_ACCESS_ERR);
        target.assertUntouched("the MR in another PD");
    }

    /** rdma-unit-test RemoteFatalError: a CAS at a misaligned address; the WRITE after it does not land. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"ATOMIC_CMP_AND_SWP", "ATOMIC_FETCH_AND_ADD"})
    void misalignedAtomicFailsWithRemoteInvalidRequestAndTheNextWriteDoesNotLand(WrOpcode op) {
        assumeOpcode(op);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE));
        Endpoint a = lb.a();
        Guarded target = guarded(lb.b().pd, 4096, ALL_REMOTE);
        SendWorkRequest bad = op(op, a, target);
        bad.remoteAddr = target.mr().addr() + 4;
        postReceives(lb);
        if (!fx.supports(Feature.MISALIGNED_ATOMIC_POSTED)) {
            // rxe's library refuses it locally; nothing reaches the wire and the target stays untouched
            VerbsAssertions.assertFails(org.jrdma.verbs.Errno.EINVAL, () -> a.qp.postSend(bad));
            target.assertUntouched("the target of the refused misaligned atomic");
            return;
        }
        a.qp.postSend(bad);
        a.qp.postSend(write(NEXT, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN), target.mr().addr() + 512,
                target.mr().rkey()));
        assertFailedThenFlushed(lb, WcStatus.REM_INV_REQ_ERR);
        target.assertUntouched("the target of the misaligned atomic and of the WRITE after it");
    }

    /** ROCEV2-FACTS §4.2 CHK_RESOURCE: max_dest_rd_atomic 0 leaves no resource for a READ → NAK 0x61. */
    @Test
    void readWithoutResponderResourcesFailsWithRemoteInvalidRequest() {
        assumeOpcode(WrOpcode.RDMA_READ);
        Loopback lb = loopback(Options.defaults().withRdAtomic(1, 0));
        Guarded local = guarded(lb.a().pd, LEN, ALL_REMOTE);
        assertClassCRow(lb, read(BAD, SendFlags.SIGNALED, Sge.of(local.mr()), lb.b().sendMr.addr(),
                lb.b().sendMr.rkey()), WcStatus.REM_INV_REQ_ERR);
        local.assertUntouched("the READ's local buffer");
    }

    /**
     * SEC-45: a zero-length READ or WRITE with a bad rkey and a bad address. The provider chose
     * (Feature {@link Feature#ZERO_LENGTH_RDMA_SKIPS_RKEY}): success with both QPs in RTS, as in
     * rxe; otherwise REM_ACCESS_ERR as for any bad rkey. Either way no byte moves.
     */
    @ParameterizedTest(name = "zero-length {0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_READ"})
    void zeroLengthRdmaWithAnInvalidRkeyBehavesAsTheProviderDeclaresAndMovesNoByte(WrOpcode op) {
        assumeOpcode(op);
        Loopback lb = loopback(Options.defaults());
        Guarded remote = guarded(lb.b().pd, 4096, ALL_REMOTE);
        Guarded local = guarded(lb.a().pd, LEN, ALL_REMOTE);
        int rkey = staleRkey(lb.b().pd);
        SendWorkRequest wr = op == WrOpcode.RDMA_WRITE
                ? write(BAD, SendFlags.SIGNALED, null, remote.mr().addr() - 1, rkey)
                : read(BAD, SendFlags.SIGNALED, null, remote.mr().addr() - 1, rkey);
        if (fx.supports(Feature.ZERO_LENGTH_RDMA_SKIPS_RKEY)) {
            lb.a().qp.postSend(wr);
            assertWc(awaitCompletion(lb.a().sendCq, "the zero-length " + op), BAD, WcStatus.SUCCESS, lb.a().qp);
            assertState(lb.a().qp, QpState.RTS, "A");
            assertState(lb.b().qp, QpState.RTS, "B");
        } else {
            assertClassCRow(lb, wr, WcStatus.REM_ACCESS_ERR);
        }
        remote.assertUntouched("remote memory");
        local.assertUntouched("local memory");
    }

    /**
     * REL-16 ("missing acks" fix in rxe): a bad-rkey WRITE is NAKed at once, so its error
     * arrives within about one round trip, not after the retry budget. With timeout 20 (4.29 s
     * per try) the bound asserted is half of one local ACK timeout, 2.1 s: a bound that only a
     * provider that waits for a timeout misses, not a speed requirement.
     */
    @Test
    void badRkeyErrorArrivesLongBeforeOneLocalAckTimeout() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        int timeout = 20;
        Loopback lb = loopback(Options.defaults().withRetry(timeout, 7));
        Endpoint a = lb.a();
        int rkey = staleRkey(lb.b().pd);
        long start = System.nanoTime();
        a.qp.postSend(write(BAD, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN), lb.b().recvMr.addr(), rkey));
        Timed t = awaitTimed(a.sendCq, start, "the bad-rkey WRITE");
        assertWc(t.wc(), BAD, WcStatus.REM_ACCESS_ERR, a.qp);
        Duration bound = ackTimeout(timeout).dividedBy(2);
        assertThat(t.elapsed()).as("time to REM_ACCESS_ERR (one ACK timeout is %s)", ackTimeout(timeout))
                .isLessThan(bound);
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static int rightFor(WrOpcode op) {
        return switch (op) {
            case RDMA_WRITE -> AccessFlags.REMOTE_WRITE;
            case RDMA_READ -> AccessFlags.REMOTE_READ;
            default -> AccessFlags.REMOTE_ATOMIC;
        };
    }

    /** {@code op} (signaled, wr_id BAD) aimed at the start of {@code target}. */
    private static SendWorkRequest op(WrOpcode op, Endpoint a, Guarded target) {
        long va = target.mr().addr();
        int rkey = target.mr().rkey();
        return switch (op) {
            case RDMA_WRITE -> write(BAD, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN), va, rkey);
            case RDMA_READ -> read(BAD, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, LEN), va, rkey);
            case ATOMIC_CMP_AND_SWP -> compareSwap(BAD, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), va, rkey,
                    0xA5A5A5A5A5A5A5A5L, 1);
            default -> fetchAdd(BAD, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), va, rkey, 1);
        };
    }

    /**
     * Posts a receive on each side, then {@code bad} and a SEND after it on A, and checks the
     * class C row: A's WR completes with {@code status}, the SEND flushes, both QPs reach ERR,
     * both receives flush (so the SEND never reached B).
     */
    private void assertClassCRow(Loopback lb, SendWorkRequest bad, WcStatus status) {
        Endpoint a = lb.a();
        postReceives(lb);
        a.qp.postSend(bad);
        a.qp.postSend(send(NEXT, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN)));
        assertFailedThenFlushed(lb, status);
    }

    private static void postReceives(Loopback lb) {
        lb.b().qp.postRecv(recv(0xB0B, Sge.of(lb.b().recvMr, 0, LEN)));
        lb.a().qp.postRecv(recv(0xA0A, Sge.of(lb.a().recvMr, 4096, LEN)));
    }

    private void assertFailedThenFlushed(Loopback lb, WcStatus status) {
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 2, "the failing WR and the one after it");
        assertWc(sends.get(0), BAD, status, a.qp);
        assertWc(sends.get(1), NEXT, WcStatus.WR_FLUSH_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
        awaitState(b.qp, QpState.ERR, "the responder (class C)");
        assertWc(awaitCompletion(b.recvCq, "B's receive, flushed"), 0xB0B, WcStatus.WR_FLUSH_ERR, b.qp);
        assertWc(awaitCompletion(a.recvCq, "A's receive, flushed"), 0xA0A, WcStatus.WR_FLUSH_ERR, a.qp);
        assertNoCompletion(a.sendCq, "A's send CQ after the error and the flush");
    }
}
