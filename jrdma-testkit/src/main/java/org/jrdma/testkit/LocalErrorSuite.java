package org.jrdma.testkit;

import java.lang.foreign.MemorySegment;
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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The local-side rows of the error tables (REL-17; RELIABILITY-SECURITY §2.4, ROCEV2-FACTS
 * §3.6): a local SGE not covered by a valid MR — stale lkey, outside the MR, another PD, an MR
 * without LOCAL_WRITE for a READ — completes with LOC_PROT_ERR (signaled or not), flushes what
 * follows and moves only the requester to ERR: the peer stays in RTS and its memory unchanged
 * (FlushErrorPollTogether, WriteInvalidRKeyAndInvalidLKey). A responder whose own receive WQE
 * is bad (BadRecvAddr, class A) fails both sides: REM_OP_ERR and LOC_PROT_ERR, both QPs in ERR.
 */
public abstract class LocalErrorSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public LocalErrorSuite() {
    }

    private static final long BAD = 0xBAD;
    private static final long NEXT = 0x4E7;
    private static final int LEN = 64;

    static List<Arguments> rdmaOpsSignaledOrNot() {
        return List.of(Arguments.of(WrOpcode.RDMA_WRITE, true), Arguments.of(WrOpcode.RDMA_WRITE, false),
                Arguments.of(WrOpcode.RDMA_READ, true), Arguments.of(WrOpcode.RDMA_READ, false));
    }

    /** SendRecvSuite covers SEND; WRITE gathers and READ scatters through the stale lkey. */
    @ParameterizedTest(name = "{0}, signaled: {1}")
    @MethodSource("rdmaOpsSignaledOrNot")
    void staleLkeyFailsWithLocalProtectionErrorAndThePeerStaysRts(WrOpcode op, boolean signaled) {
        assumeOpcode(op);
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Guarded remote = guarded(lb.b().pd, 4096, ALL_REMOTE);
        Payload.fill(remote.inside(), 3);
        Sge local = new Sge(a.recvMr.addr(), LEN, staleLkey(a.pd));
        int flags = signaled ? SendFlags.SIGNALED : 0;
        SendWorkRequest wr = op == WrOpcode.RDMA_WRITE
                ? write(BAD, flags, local, remote.mr().addr(), remote.mr().rkey())
                : read(BAD, flags, local, remote.mr().addr(), remote.mr().rkey());
        assertLocalRow(lb, wr);
        remote.assertGuardsIntact("the remote MR");
        if (op == WrOpcode.RDMA_WRITE) {
            // Nothing was written: the remote MR still holds what it was filled with.
            Payload.assertSameBytes(remote.inside(), seeded(4096, 3), "the remote MR");
        }
    }

    /** rdma-unit-test WriteInvalidRKeyAndInvalidLKey: the lkey is checked first, locally. */
    @Test
    void staleLkeyAndStaleRkeyFailLocallyFirst() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Guarded remote = guarded(lb.b().pd, 4096, ALL_REMOTE);
        assertLocalRow(lb, write(BAD, SendFlags.SIGNALED, new Sge(a.sendMr.addr(), LEN, staleLkey(a.pd)),
                remote.mr().addr(), staleRkey(lb.b().pd)));
        remote.assertUntouched("the remote MR");
    }

    /** An SGE that starts inside the MR and runs 16 bytes past its end. */
    @Test
    void sgeRunningPastTheEndOfItsMrFailsWithLocalProtectionError() {
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        long end = a.sendMr.addr() + a.sendMr.length();
        assertLocalRow(lb, send(BAD, SendFlags.SIGNALED, new Sge(end - LEN + 16, LEN, a.sendMr.lkey())));
    }

    /** The lkey of an MR in another PD than the QP's is not a valid key for it. */
    @Test
    void lkeyOfAnMrInAnotherPdFailsWithLocalProtectionError() {
        Loopback lb = loopback(Options.defaults());
        ProtectionDomain otherPd = track(lb.a().context.allocPd());
        Guarded foreign = guarded(otherPd, 4096, ALL_REMOTE);
        assertLocalRow(lb, send(BAD, SendFlags.SIGNALED, Sge.of(foreign.mr(), 0, LEN)));
    }

    /** A READ scatters into local memory: an MR registered without LOCAL_WRITE may not receive it. */
    @Test
    void readIntoAnMrWithoutLocalWriteFailsWithLocalProtectionError() {
        assumeOpcode(WrOpcode.RDMA_READ);
        Loopback lb = loopback(Options.defaults());
        Guarded readOnly = guarded(lb.a().pd, 4096, AccessFlags.REMOTE_READ);
        assertLocalRow(lb, read(BAD, SendFlags.SIGNALED, Sge.of(readOnly.mr(), 0, LEN), lb.b().sendMr.addr(),
                lb.b().sendMr.rkey()));
        readOnly.assertUntouched("the MR without LOCAL_WRITE");
    }

    /**
     * rdma-unit-test BadRecvAddr (RELIABILITY-SECURITY §2.2, class A): B's receive WQE names a
     * stale lkey. B completes it with LOC_PROT_ERR and NAKs 0x63; A completes with REM_OP_ERR;
     * both QPs end in ERR and what follows on A flushes.
     */
    @ParameterizedTest(name = "{0}-byte SEND")
    @ValueSource(ints = {LEN, 3000})
    void receiveWithAStaleLkeyFailsBothSidesWithRemoteOperationalAndLocalProtectionErrors(int size) {
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.recvMr.segment().fill(CANARY);
        b.qp.postRecv(recv(0xB0B, new Sge(b.recvMr.addr(), 4096, staleLkey(b.pd))));
        a.qp.postSend(send(BAD, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, size)));
        a.qp.postSend(send(NEXT, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN)));
        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 2, "the SEND into a bad receive and the one after");
        assertWc(sends.get(0), BAD, WcStatus.REM_OP_ERR, a.qp);
        assertWc(sends.get(1), NEXT, WcStatus.WR_FLUSH_ERR, a.qp);
        WorkCompletion badRecv = awaitCompletion(b.recvCq, "B's bad receive");
        assertWc(badRecv, 0xB0B, badLkeyStatus(badRecv), b.qp);
        awaitState(a.qp, QpState.ERR, "the requester");
        awaitState(b.qp, QpState.ERR, "the responder (class A)");
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's receive buffer");
    }

    // ---- helpers ------------------------------------------------------------------------------

    /**
     * Posts a receive on B, {@code bad} and a signaled WR after it on A: {@code bad} completes
     * with LOC_PROT_ERR, the next WR flushes, A goes to ERR, B stays in RTS with its receive unused.
     */
    private void assertLocalRow(Loopback lb, SendWorkRequest bad) {
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.qp.postRecv(recv(0xB0B, Sge.of(b.recvMr, 0, LEN)));
        a.qp.postSend(bad);
        // A READ's local error shows only when its response arrives, so a SEND behind it may
        // already have reached B before A flushes it: after a READ, the WR behind is a READ too.
        a.qp.postSend(bad.opcode == WrOpcode.RDMA_READ
                ? read(NEXT, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN), b.sendMr.addr(), b.sendMr.rkey())
                : send(NEXT, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, LEN)));
        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 2, "the bad WR and the one after it");
        assertWc(sends.get(0), BAD, badLkeyStatus(sends.get(0)), a.qp);
        assertWc(sends.get(1), NEXT, WcStatus.WR_FLUSH_ERR, a.qp);
        awaitState(a.qp, QpState.ERR, "the QP with the bad SGE");
        assertNoCompletion(b.recvCq, "B's receive CQ: nothing reached B's receive");
        assertState(b.qp, QpState.RTS, "the peer");
    }

    private static MemorySegment seeded(int bytes, long seed) {
        MemorySegment s = MemorySegment.ofArray(new byte[bytes]);
        Payload.fill(s, seed);
        return s;
    }
}
