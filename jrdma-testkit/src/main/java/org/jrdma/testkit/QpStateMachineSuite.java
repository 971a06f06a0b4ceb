package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertNames;
import static org.jrdma.verbs.QpState.ERR;
import static org.jrdma.verbs.QpState.INIT;
import static org.jrdma.verbs.QpState.RESET;
import static org.jrdma.verbs.QpState.RTR;
import static org.jrdma.verbs.QpState.RTS;
import static org.jrdma.verbs.QpState.SQD;
import static org.jrdma.verbs.QpState.SQE;

import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.QpTransitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RC QP state machine (ROCEV2-FACTS §3.1–3.4, the kernel's {@code qp_state_table} as
 * {@link QpTransitions} encodes it), QPN allocation and query_qp. What posting does in each
 * state is {@link QpPostingSuite}.
 */
public abstract class QpStateMachineSuite extends QpSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public QpStateMachineSuite() {
    }

    /** SQE is entered only on a send error of a UC/UD QP: an RC QP is never there (§3.1). */
    private static final List<QpState> REACHABLE = List.of(RESET, INIT, RTR, RTS, SQD, ERR);
    private static final List<QpState> TARGETS = List.of(RESET, INIT, RTR, RTS, SQD, SQE, ERR);

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
        if (from == QpState.RESET && to == QpState.ERR) {
            assumeSupported(Feature.RESET_TO_ERR);
        }
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




}
