package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertCompletion;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertNames;
import static org.jrdma.verbs.QpState.ERR;
import static org.jrdma.verbs.QpState.INIT;
import static org.jrdma.verbs.QpState.RESET;
import static org.jrdma.verbs.QpState.RTR;
import static org.jrdma.verbs.QpState.RTS;
import static org.jrdma.verbs.QpState.SQD;
import static org.jrdma.verbs.QpState.SQE;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.spi.QpTransitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RC QP state machine (ROCEV2-FACTS §3.1–3.5, the kernel's {@code qp_state_table} as
 * {@link QpTransitions} encodes it), QPN allocation, query_qp, and what posting does in each
 * state, including flush on ERR and discard on RESET (RELIABILITY-SECURITY REL-18).
 */
public abstract class QpStateMachineSuite extends ProviderSuite {
    private static final QpType RC = QpType.RC;
    /** SQE is entered only on a send error of a UC/UD QP: an RC QP is never there (§3.1). */
    private static final List<QpState> REACHABLE = List.of(RESET, INIT, RTR, RTS, SQD, ERR);
    private static final List<QpState> TARGETS = List.of(RESET, INIT, RTR, RTS, SQD, SQE, ERR);
    private static final QpCap CAP = new QpCap(16, 16, 1, 1, 0);
    private static final int PSN = 0x3A5C1;

    private ProtectionDomain pd;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private MemoryRegion mr;
    private Gid gid;
    private Mtu mtu;

    @BeforeEach
    protected final void createQpResources() {
        pd = track(context.allocPd());
        sendCq = track(context.createCq(256, null));
        recvCq = track(context.createCq(256, null));
        Arena arena = track(Arena.ofShared());
        mr = track(pd.registerMemory(arena.allocate(4096, 4096), AccessFlags.LOCAL_WRITE));
        gid = context.queryGid(fx.port(), fx.gidIndex());
        mtu = Mtu.MTU_1024.min(context.queryPort(fx.port()).activeMtu());
    }

    // ---- transitions ------------------------------------------------------------------------

    static Stream<Arguments> legalTransitions() {
        return pairs().filter(p -> QpTransitions.isLegal(RC, state(p, 0), state(p, 1)));
    }

    static Stream<Arguments> illegalTransitions() {
        return pairs().filter(p -> !QpTransitions.isLegal(RC, state(p, 0), state(p, 1)));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("legalTransitions")
    void legalTransitionWithItsRequiredAttributesSucceeds(QpState from, QpState to) {
        assumeReachable(from, to);
        QueuePair qp = qpIn(from);
        qp.modify(every(qp, from, to), QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to));
        assertThat(qp.query().qpState()).as("query after %s → %s", from, to).isEqualTo(to);
        assertThat(qp.state()).isEqualTo(to);
    }

    /**
     * The modify carries the attributes that would take a QP to {@code to} from its usual
     * predecessor, so the only thing wrong with it is the transition itself.
     */
    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("illegalTransitions")
    void illegalTransitionIsRefusedAndLeavesStateUnchanged(QpState from, QpState to) {
        assumeReachable(from, to);
        QueuePair qp = qpIn(from);
        int mask = QpAttrMask.STATE.bit() | attributesLeadingTo(to);
        VerbsException e = assertFails(Errno.EINVAL, () -> qp.modify(every(qp, from, to), mask));
        assertNames(e, from.name());
        assertNames(e, to.name());
        assertUnchanged(qp, from);
    }

    static Stream<Arguments> requiredAttributes() {
        return legalTransitions().flatMap(p -> {
            int required = QpTransitions.required(RC, state(p, 0), state(p, 1));
            return Arrays.stream(QpAttrMask.values()).filter(a -> a.in(required))
                    .map(a -> Arguments.of(state(p, 0), state(p, 1), a));
        });
    }

    /** ibv_modify_qp.3: a missing required attribute fails the call and modifies nothing. */
    @ParameterizedTest(name = "{0} → {1} without {2}")
    @MethodSource("requiredAttributes")
    void transitionWithoutARequiredAttributeIsRefusedNamingIt(QpState from, QpState to, QpAttrMask missing) {
        assumeReachable(from, to);
        QueuePair qp = qpIn(from);
        int mask = (QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to)) & ~missing.bit();
        VerbsException e = assertFails(Errno.EINVAL, () -> qp.modify(every(qp, from, to), mask));
        assertNames(e, missing.name());
        assertUnchanged(qp, from);
    }

    static Stream<Arguments> unexpectedAttributes() {
        return legalTransitions().flatMap(p -> {
            QpState from = state(p, 0);
            QpState to = state(p, 1);
            int allowed = QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to)
                    | QpTransitions.optional(RC, from, to);
            return Arrays.stream(QpAttrMask.values()).filter(a -> !a.in(allowed)).map(a -> Arguments.of(from, to, a));
        });
    }

    /** The kernel refuses a mask bit outside required ∪ optional ∪ STATE (ROCEV2-FACTS §3.2). */
    @ParameterizedTest(name = "{0} → {1} with {2}")
    @MethodSource("unexpectedAttributes")
    void transitionWithAnUnexpectedAttributeIsRefusedNamingIt(QpState from, QpState to, QpAttrMask extra) {
        assumeReachable(from, to);
        QueuePair qp = qpIn(from);
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to) | extra.bit();
        VerbsException e = assertFails(Errno.EINVAL, () -> qp.modify(every(qp, from, to), mask));
        assertNames(e, extra.name());
        assertUnchanged(qp, from);
    }

    /** Values outside their field (24-bit PSN and QPN, 5-bit timers, 3-bit retry counters). */
    enum OutOfRange {
        RQ_PSN(INIT, a -> a.rqPsn(1 << 24)),
        DEST_QPN(INIT, a -> a.destQpNum(1 << 24)),
        MIN_RNR_TIMER(INIT, a -> a.minRnrTimer(32)),
        SQ_PSN(RTR, a -> a.sqPsn(1 << 24)),
        TIMEOUT(RTR, a -> a.timeout(32)),
        RETRY_CNT(RTR, a -> a.retryCnt(8)),
        RNR_RETRY(RTR, a -> a.rnrRetry(8));

        final QpState from;
        final UnaryOperator<QpAttr> corrupt;

        OutOfRange(QpState from, UnaryOperator<QpAttr> corrupt) {
            this.from = from;
            this.corrupt = corrupt;
        }

        QpState to() {
            return from == INIT ? RTR : RTS;
        }
    }

    /**
     * rxe silently masks an oversized PSN (RELIABILITY-SECURITY §2.3); jrdma refuses it, as
     * {@link QpTransitions} checks every value before anything is modified.
     */
    @ParameterizedTest
    @EnumSource(OutOfRange.class)
    void outOfRangeValueIsRefusedNamingTheAttribute(OutOfRange bad) {
        QueuePair qp = qpIn(bad.from);
        QpAttr attr = bad.corrupt.apply(every(qp, bad.from, bad.to()));
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, bad.from, bad.to());
        VerbsException e = assertFails(Errno.EINVAL, () -> qp.modify(attr, mask));
        assertNames(e, bad.name());
        assertUnchanged(qp, bad.from);
    }

    // ---- creation and query -----------------------------------------------------------------

    @Test
    void newQpStartsInResetWithAValidQpnAndAtLeastTheAskedCapabilities() {
        QueuePair qp = newQp();
        assertThat(qp.state()).isEqualTo(RESET);
        assertThat(qp.query().qpState()).isEqualTo(RESET);
        assertThat(qp.qpType()).isEqualTo(RC);
        // 0 is the SMI QP, 1 the GSI QP and 0xFFFFFF the multicast QPN.
        assertThat(qp.qpNum()).isBetween(2, 0xFFFFFE);
        assertThat(qp.cap().maxSendWr()).isGreaterThanOrEqualTo(CAP.maxSendWr());
        assertThat(qp.cap().maxRecvWr()).isGreaterThanOrEqualTo(CAP.maxRecvWr());
        assertThat(qp.cap().maxSendSge()).isGreaterThanOrEqualTo(CAP.maxSendSge());
        assertThat(qp.cap().maxRecvSge()).isGreaterThanOrEqualTo(CAP.maxRecvSge());
    }

    @Test
    void qpnsOfManyQpsAreDistinctAndValid() {
        int[] qpns = manyQpns();
        assertThat(Arrays.stream(qpns).distinct().count()).as("distinct QPNs among %d live QPs", qpns.length)
                .isEqualTo(qpns.length);
        assertThat(Arrays.stream(qpns).boxed().toList()).allSatisfy(q -> assertThat(q).isBetween(2, 0xFFFFFE));
    }

    /** SEC-04: a QPN must not be guessable from the previous one (ReDMArk V5). */
    @Test
    void qpnsAreNotSequential() {
        assumeSupported(Feature.RANDOM_QPN);
        int[] qpns = manyQpns();
        long steps = 0;
        for (int i = 1; i < qpns.length; i++) {
            if (qpns[i] - qpns[i - 1] == 1) {
                steps++;
            }
        }
        assertThat(steps).as("consecutive QPNs one apart among %d", qpns.length).isLessThanOrEqualTo(qpns.length / 100);
    }

    @Test
    void queryReturnsTheAttributesThatWereSet() {
        QueuePair qp = newQp();
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
        qp.modify(RcAttrs.init(fx.port(), access));
        QpAttr init = qp.query();
        SoftAssertions.assertSoftly(s -> {
            s.assertThat(init.qpState()).as("state").isEqualTo(INIT);
            s.assertThat(init.port()).as("port").isEqualTo(fx.port());
            s.assertThat(init.pkeyIndex()).as("pkey index").isZero();
            s.assertThat(init.accessFlags()).as("access flags").isEqualTo(access);
        });

        // Values that differ from QpAttr's defaults and from RcAttrs', so an echo of either fails.
        Mtu pathMtu = mtu == Mtu.MTU_256 ? Mtu.MTU_256 : Mtu.MTU_512;
        int destQpn = 0xABCDE;
        int rqPsn = 0x123456;
        int sqPsn = 0xFEDCBA;
        qp.modify(new QpAttr().state(RTR).ahAttr(AhAttr.roce(gid, fx.gidIndex(), fx.port())).pathMtu(pathMtu)
                .destQpNum(destQpn).rqPsn(rqPsn).maxDestRdAtomic(1).minRnrTimer(9));
        qp.modify(new QpAttr().state(RTS).sqPsn(sqPsn).timeout(17).retryCnt(6).rnrRetry(5).maxRdAtomic(1));
        QpAttr q = qp.query();
        SoftAssertions.assertSoftly(s -> {
            s.assertThat(q.qpState()).as("state").isEqualTo(RTS);
            s.assertThat(q.pathMtu()).as("path MTU").isEqualTo(pathMtu);
            s.assertThat(q.destQpNum()).as("dest QPN").isEqualTo(destQpn);
            s.assertThat(q.rqPsn()).as("rq PSN").isEqualTo(rqPsn);
            s.assertThat(q.sqPsn()).as("sq PSN (nothing sent yet)").isEqualTo(sqPsn);
            s.assertThat(q.timeout()).as("timeout").isEqualTo(17);
            s.assertThat(q.retryCnt()).as("retry count").isEqualTo(6);
            s.assertThat(q.rnrRetry()).as("RNR retry").isEqualTo(5);
            s.assertThat(q.minRnrTimer()).as("min RNR timer").isEqualTo(9);
            s.assertThat(q.accessFlags()).as("access flags").isEqualTo(access);
            s.assertThat(q.ahAttr().dgid).as("AV dgid").isEqualTo(gid);
        });
    }

    // ---- posting in each state (REL-18) -------------------------------------------------------

    /** rdma-core post_rq_state_bad_flow: no receive may be posted in RESET (§3.1). */
    @Test
    void postRecvInResetIsRefusedWithEinval() {
        QueuePair qp = qpIn(RESET);
        assertFails(Errno.EINVAL, () -> qp.postRecv(recv(1)));
        assertNoCompletion(recvCq, "the receive CQ");
    }

    @ParameterizedTest
    @EnumSource(names = {"INIT", "RTR", "RTS"})
    void postRecvIsAcceptedFromInitOn(QpState state) {
        QueuePair qp = qpIn(state);
        qp.postRecv(recv(1));
        assertThat(qp.query().qpState()).isEqualTo(state);
    }

    /** rdma-core post_sq_state_bad_flow: sends need RTS, SQD or ERR (§3.1). */
    @ParameterizedTest
    @EnumSource(names = {"RESET", "INIT", "RTR"})
    void postSendBeforeRtsIsRefusedWithEinval(QpState state) {
        QueuePair qp = qpIn(state);
        assertFails(Errno.EINVAL, () -> qp.postSend(send(1, SendFlags.SIGNALED)));
        assertNoCompletion(sendCq, "the send CQ");
    }

    @Test
    void overPostingReceivesIsRefusedWithEnomem() {
        QueuePair qp = qpIn(INIT);
        int n = qp.cap().maxRecvWr();
        for (int i = 0; i < n; i++) {
            qp.postRecv(recv(i));
        }
        assertFails(Errno.ENOMEM, () -> qp.postRecv(recv(n)));
        assertThat(qp.query().qpState()).isEqualTo(INIT);
    }

    /** B posts no receive, so A's SENDs meet RNR NAKs and, with RNR retry 7 (infinite), stay queued. */
    @Test
    void overPostingSendsIsRefusedWithEnomem() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        int n = a.qp.cap().maxSendWr();
        for (int i = 0; i < n; i++) {
            a.qp.postSend(new SendWorkRequest().wrId(i).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64)));
        }
        assertFails(Errno.ENOMEM,
                () -> a.qp.postSend(new SendWorkRequest().wrId(n).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64))));
        assertThat(a.qp.query().qpState()).isEqualTo(RTS);
    }

    /** §3.5: WRs posted in ERR complete with WR_FLUSH_ERR, unsignaled sends too; REL-18. */
    @Test
    void workPostedInErrIsFlushedOnceEachInOrder() {
        QueuePair qp = qpIn(ERR);
        for (int i = 0; i < 5; i++) {
            qp.postRecv(recv(100 + i));
        }
        for (int i = 0; i < 6; i++) {
            qp.postSend(send(200 + i, i % 2 == 0 ? SendFlags.SIGNALED : 0));
        }
        assertFlushedInOrder(awaitCompletions(recvCq, 5, "receives posted in ERR"), 100, qp.qpNum());
        assertFlushedInOrder(awaitCompletions(sendCq, 6, "sends posted in ERR, unsignaled ones too"), 200, qp.qpNum());
        assertNoCompletion(recvCq, "the receive CQ after every receive was flushed once");
        assertNoCompletion(sendCq, "the send CQ after every send was flushed once");
    }

    /** §3.5 and rxe: every outstanding SQ and RQ WQE is flushed in order when the QP enters ERR. */
    @Test
    void outstandingWorkIsFlushedInOrderWhenTheQpMovesToErr() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        postStalledWork(a, 4, 6);
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, 4, "receives outstanding at ERR"), 100, a.qp.qpNum());
        assertFlushedInOrder(awaitCompletions(a.sendCq, 6, "sends outstanding at ERR, unsignaled ones too"), 200,
                a.qp.qpNum());
        assertNoCompletion(a.recvCq, "A's receive CQ after the flush");
        assertNoCompletion(a.sendCq, "A's send CQ after the flush");
    }

    /** §3.5: → RESET empties both queues silently; afterwards the RQ holds only new WRs. */
    @Test
    void resetEmptiesBothQueuesWithoutCompletions() {
        Loopback.Endpoint a = loopback(Loopback.Options.defaults().withCap(CAP)).a();
        postStalledWork(a, 4, 4);
        a.qp.modify(new QpAttr().state(RESET));
        assertThat(a.qp.query().qpState()).isEqualTo(RESET);
        assertNoCompletion(a.recvCq, "A's receive CQ after → RESET");
        assertNoCompletion(a.sendCq, "A's send CQ after → RESET");

        a.qp.modify(RcAttrs.init(fx.port(), RcAttrs.ACCESS));
        int n = a.qp.cap().maxRecvWr();
        assumeTrue(n <= a.recvCq.capacity(), "the receive CQ holds a full RQ");
        for (int i = 0; i < n; i++) {
            // A full RQ's worth fits only if the four earlier receives are gone.
            a.qp.postRecv(new RecvWorkRequest().wrId(1000 + i).sg(Sge.of(a.recvMr, 0, 64)));
        }
        a.qp.modify(new QpAttr().state(ERR));
        assertFlushedInOrder(awaitCompletions(a.recvCq, n, "receives posted after RESET, flushed by ERR"), 1000,
                a.qp.qpNum());
        assertNoCompletion(a.recvCq, "A's receive CQ: nothing left from before RESET");
        assertNoCompletion(a.sendCq, "A's send CQ: nothing left from before RESET");
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static Stream<Arguments> pairs() {
        return REACHABLE.stream().flatMap(from -> TARGETS.stream().map(to -> Arguments.of(from, to)));
    }

    private static QpState state(Arguments pair, int index) {
        return (QpState) pair.get()[index];
    }

    private void assumeReachable(QpState from, QpState to) {
        if (from == SQD || (to == SQD && QpTransitions.isLegal(RC, from, to))) {
            assumeSupported(Feature.SQD);
        }
    }

    /** The attributes that take a QP to {@code to} from its usual predecessor. */
    static int attributesLeadingTo(QpState to) {
        return switch (to) {
            case INIT -> QpTransitions.required(RC, RESET, INIT);
            case RTR -> QpTransitions.required(RC, INIT, RTR);
            case RTS -> QpTransitions.required(RC, RTR, RTS);
            default -> 0;
        };
    }

    private QueuePair newQp() {
        return track(pd.createQp(new QpInitAttr().qpType(RC).sendCq(sendCq).recvCq(recvCq).cap(CAP)));
    }

    /** A fresh QP brought to {@code state} by legal steps; connected to itself from RTR on. */
    private QueuePair qpIn(QpState state) {
        QueuePair qp = newQp();
        if (state != RESET) {
            qp.modify(RcAttrs.init(fx.port(), RcAttrs.ACCESS));
        }
        switch (state) {
            case RESET, INIT -> { }
            case ERR -> qp.modify(new QpAttr().state(ERR));
            case RTR, RTS, SQD -> {
                qp.modify(RcAttrs.rtr(AhAttr.roce(gid, fx.gidIndex(), fx.port()), mtu, qp.qpNum(), PSN));
                if (state != RTR) {
                    qp.modify(RcAttrs.rts(PSN));
                }
                if (state == SQD) {
                    qp.modify(new QpAttr().state(SQD));
                }
            }
            default -> throw new IllegalArgumentException("an RC QP cannot be brought to " + state);
        }
        assertThat(qp.query().qpState()).as("a fresh QP brought to %s", state).isEqualTo(state);
        return qp;
    }

    private QpAttr every(QueuePair qp, QpState from, QpState to) {
        return RcAttrs.every(from, to, AhAttr.roce(gid, fx.gidIndex(), fx.port()), mtu, fx.port(), qp.qpNum(), PSN,
                qp.cap());
    }

    /** "If any attribute or mask is invalid, nothing is modified, including the state" (ibv_modify_qp.3). */
    private static void assertUnchanged(QueuePair qp, QpState state) {
        assertThat(qp.query().qpState()).as("state after a refused modify").isEqualTo(state);
        assertThat(qp.state()).isEqualTo(state);
    }

    private int[] manyQpns() {
        int n = Math.min(1000, context.queryDevice().maxQp() / 2);
        QpCap tiny = new QpCap(1, 1, 1, 1, 0);
        int[] qpns = new int[n];
        for (int i = 0; i < n; i++) {
            qpns[i] = track(pd.createQp(new QpInitAttr().qpType(RC).cq(sendCq).cap(tiny))).qpNum();
        }
        return qpns;
    }

    private RecvWorkRequest recv(long wrId) {
        return new RecvWorkRequest().wrId(wrId).sg(Sge.of(mr, 0, 64));
    }

    private SendWorkRequest send(long wrId, int flags) {
        return new SendWorkRequest().wrId(wrId).flags(flags).sg(Sge.of(mr, 0, 64));
    }

    /**
     * Posts receives 100.. and sends 200.. (every other one unsignaled) on A while B has no
     * receive posted: B answers each SEND with an RNR NAK, and with RNR retry 7 (infinite,
     * IBA) nothing completes, which the settle period checks.
     */
    private void postStalledWork(Loopback.Endpoint a, int recvs, int sends) {
        for (int i = 0; i < recvs; i++) {
            a.qp.postRecv(new RecvWorkRequest().wrId(100 + i).sg(Sge.of(a.recvMr, 64L * i, 64)));
        }
        for (int i = 0; i < sends; i++) {
            a.qp.postSend(new SendWorkRequest().wrId(200 + i).flags(i % 2 == 0 ? SendFlags.SIGNALED : 0)
                    .sg(Sge.of(a.sendMr, 0, 64)));
        }
        assertNoCompletion(a.sendCq, "A's send CQ while B has no receive posted");
        assertNoCompletion(a.recvCq, "A's receive CQ while B sends nothing");
    }

    private static void assertFlushedInOrder(List<WorkCompletion> wcs, long firstWrId, int qpNum) {
        for (int i = 0; i < wcs.size(); i++) {
            WorkCompletion wc = wcs.get(i);
            assertCompletion(wc, firstWrId + i, WcStatus.WR_FLUSH_ERR);
            assertThat(wc.qpNum).as("qp_num of %s", wc).isEqualTo(qpNum);
        }
    }
}
