package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertNames;

import java.lang.foreign.MemorySegment;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UC queue pairs (ROCEV2-FACTS §1.4, §3.3, §4.1–4.2): RTR needs AV, PATH_MTU, DEST_QPN and
 * RQ_PSN, RTS only SQ_PSN. SEND and RDMA WRITE (with immediate) work and complete without ACKs;
 * UC has no READ or atomics, no RNR and no retries: a message that finds no receive, or a WRITE
 * with a bad rkey, is dropped at the responder while the sender completes successfully, the
 * responder stays in RTS and the next message arrives.
 */
public abstract class UcSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public UcSuite() {
    }

    private Endpoint a;
    private Endpoint b;

    /** Skips unless the provider has {@link Feature#UC} and a 1024-byte MTU; connects a UC pair. */
    @BeforeEach
    protected final void connectUcPair() {
        assumeSupported(Feature.UC);
        assumeMtu(Mtu.MTU_1024);
        Loopback lb = loopback(Options.defaults().withQpType(QpType.UC));
        a = lb.a();
        b = lb.b();
    }

    /** The UC column of §3.3: RTR without RQ_PSN is refused; MIN_RNR_TIMER is not a UC attribute. */
    @Test
    void ucRtrNeedsTheRcPathAttributesButNoRnrTimer() {
        QueuePair qp = track(a.pd.createQp(new QpInitAttr().qpType(QpType.UC).cq(a.sendCq)));
        qp.modify(RcAttrs.init(fx.port(), RcAttrs.ACCESS));
        AhAttr av = AhAttr.roce(b.gid, fx.gidIndex(), fx.port());
        VerbsException e = assertFails(Errno.EINVAL, () -> qp.modify(new QpAttr().state(QpState.RTR).ahAttr(av)
                .pathMtu(Mtu.MTU_1024).destQpNum(b.qp.qpNum())));
        assertNames(e, "RQ_PSN");
        e = assertFails(Errno.EINVAL, () -> qp.modify(new QpAttr().state(QpState.RTR).ahAttr(av).pathMtu(Mtu.MTU_1024)
                .destQpNum(b.qp.qpNum()).rqPsn(1).minRnrTimer(12)));
        assertNames(e, "MIN_RNR_TIMER");
        assertState(qp, QpState.INIT, "the UC QP");
    }

    static Stream<Arguments> transfers() {
        return Stream.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM)
                .flatMap(op -> Stream.of(0, 1, 1024, 3 * 1024 + 7).map(size -> Arguments.of(op, size)));
    }

    @ParameterizedTest(name = "{0} of {1} bytes")
    @MethodSource("transfers")
    void sendAndWriteArriveByteForByteWithTheRightCompletions(WrOpcode op, int size) {
        assumeOpcode(op);
        MemorySegment data = a.sendMr.segment().asSlice(0, size);
        Payload.fill(data, 0x0C + size);
        b.recvMr.segment().fill(CANARY);
        boolean consumesReceive = op != WrOpcode.RDMA_WRITE;
        if (consumesReceive) {
            b.qp.postRecv(recv(1, Sge.of(b.recvMr, GUARD, size + GUARD)));
        }
        SendWorkRequest wr = new SendWorkRequest().wrId(2).opcode(op).flags(SendFlags.SIGNALED).imm(IMM)
                .rdma(b.recvMr.addr() + GUARD, b.recvMr.rkey());
        if (size > 0) {
            wr.sg(Sge.of(a.sendMr, 0, size));
        }
        a.qp.postSend(wr);
        WorkCompletion s = awaitCompletion(a.sendCq, "the UC " + op);
        assertWc(s, 2, WcStatus.SUCCESS, a.qp);
        assertThat(s.opcode).isEqualTo(op.completionOpcode());
        if (consumesReceive) {
            WorkCompletion r = awaitCompletion(b.recvCq, "its receive");
            assertWc(r, 1, WcStatus.SUCCESS, b.qp);
            assertThat(r.opcode).isEqualTo(op == WrOpcode.RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV);
            assertThat(r.byteLen).isEqualTo(size);
            assertThat(r.wcFlags & WcFlags.WITH_IMM).isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
            if (op.hasImmediate()) {
                assertThat(r.immData).isEqualTo(IMM);
            }
        } else {
            // No ACK to wait for: the sender may complete before the data lands, so poll for it.
            await(() -> b.recvMr.segment().asSlice(GUARD, size).mismatch(data) < 0, "the UC WRITE's data at B");
        }
        Payload.assertSameBytes(b.recvMr.segment().asSlice(GUARD, size), data, "UC " + op);
        Payload.assertFilledWith(b.recvMr.segment().asSlice(0, GUARD), CANARY, "canary before the target");
        Payload.assertFilledWith(b.recvMr.segment().asSlice(GUARD + size), CANARY, "canary after the target");
    }

    /** No RNR on UC (§4.2 CHK_RESOURCE): a SEND without a receive is dropped; the next one arrives. */
    @Test
    void sendWithoutAReceiveIsDroppedAndTheNextMessageArrives() {
        Payload.fill(a.sendMr.segment().asSlice(0, 2000), 5);
        a.qp.postSend(send(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 1000)));
        assertWc(awaitCompletion(a.sendCq, "the SEND nobody receives (no ACK to wait for)"), 1, WcStatus.SUCCESS, a.qp);
        assertNoCompletion(b.recvCq, "B's receive CQ: the SEND without a receive");
        assertState(b.qp, QpState.RTS, "B");

        b.qp.postRecv(recv(3, Sge.of(b.recvMr, 0, 1000)));
        a.qp.postSend(send(2, SendFlags.SIGNALED, Sge.of(a.sendMr, 1000, 1000)));
        assertWc(awaitCompletion(a.sendCq, "the next SEND"), 2, WcStatus.SUCCESS, a.qp);
        assertWc(awaitCompletion(b.recvCq, "the next SEND's receive"), 3, WcStatus.SUCCESS, b.qp);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, 1000), a.sendMr.segment().asSlice(1000, 1000),
                "the second message, not the dropped first one");
    }

    /** §4.2 table, UC column: an R_Key violation is dropped; nobody goes to ERR. */
    @Test
    void writeWithABadRkeyIsDroppedAndBothQpsStayRts() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        b.recvMr.segment().fill(CANARY);
        a.qp.postSend(write(1, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 500), b.recvMr.addr(), staleRkey(b.pd)));
        assertWc(awaitCompletion(a.sendCq, "the bad-rkey UC WRITE"), 1, WcStatus.SUCCESS, a.qp);
        b.qp.postRecv(recv(2, Sge.of(b.recvMr, 0, 64)));
        a.qp.postSend(send(3, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)));
        assertWc(awaitCompletion(b.recvCq, "a SEND after the dropped WRITE"), 2, WcStatus.SUCCESS, b.qp);
        Payload.assertFilledWith(b.recvMr.segment().asSlice(64), CANARY, "B's memory past the SEND");
        assertState(a.qp, QpState.RTS, "A");
        assertState(b.qp, QpState.RTS, "B");
    }

    /** UC has no READ or atomic opcodes (§1.4): refused at post (EINVAL) or completed with an error. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_READ", "ATOMIC_CMP_AND_SWP", "ATOMIC_FETCH_AND_ADD"})
    void readAndAtomicsAreRefused(WrOpcode op) {
        b.sendMr.segment().fill(CANARY);
        b.recvMr.segment().fill(CANARY);
        a.recvMr.segment().fill(CANARY);
        try {
            a.qp.postSend(anyOp(op, 1, SendFlags.SIGNALED, a, b));
            WorkCompletion s = awaitCompletion(a.sendCq, "the UC " + op);
            assertThat(s.wrId).isEqualTo(1);
            assertThat(s.status).as("status of a UC %s", op).isNotEqualTo(WcStatus.SUCCESS);
        } catch (VerbsException e) {
            assertThat(e.errno()).as("errno of \"%s\"", e.getMessage()).isIn(Errno.EINVAL, Errno.EOPNOTSUPP);
        }
        Payload.assertFilledWith(a.recvMr.segment(), CANARY, "A's memory");
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory");
        assertState(b.qp, QpState.RTS, "B");
    }
}
