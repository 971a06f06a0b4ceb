package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jrdma.verbs.QpAttrMask.ACCESS_FLAGS;
import static org.jrdma.verbs.QpAttrMask.AV;
import static org.jrdma.verbs.QpAttrMask.DEST_QPN;
import static org.jrdma.verbs.QpAttrMask.MAX_DEST_RD_ATOMIC;
import static org.jrdma.verbs.QpAttrMask.MAX_QP_RD_ATOMIC;
import static org.jrdma.verbs.QpAttrMask.MIN_RNR_TIMER;
import static org.jrdma.verbs.QpAttrMask.PATH_MTU;
import static org.jrdma.verbs.QpAttrMask.PKEY_INDEX;
import static org.jrdma.verbs.QpAttrMask.PORT;
import static org.jrdma.verbs.QpAttrMask.QKEY;
import static org.jrdma.verbs.QpAttrMask.RETRY_CNT;
import static org.jrdma.verbs.QpAttrMask.RNR_RETRY;
import static org.jrdma.verbs.QpAttrMask.RQ_PSN;
import static org.jrdma.verbs.QpAttrMask.SQ_PSN;
import static org.jrdma.verbs.QpAttrMask.STATE;
import static org.jrdma.verbs.QpAttrMask.TIMEOUT;
import static org.jrdma.verbs.QpAttrMask.of;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jrdma.verbs.spi.QpTransitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The walk's steps carry ibv_modify_qp's required attributes per transport, with the presets' values. */
class QpWalkTest {
    private static final AhAttr AV_TO_PEER = AhAttr.roce(Gid.fromHex("00000000000000000000ffff7f4d0002"), 0, 1);
    private static final List<Function<QpType, QpWalk>> PRESETS = List.of(QpWalk::of, QpWalk::rcPingpong, QpWalk::perftest);

    /** A walk with the peer's values set, as every connecting program sets them. */
    private static QpWalk connected(QpWalk walk) {
        return walk.destQpNum(0xABCDE).rqPsn(0x123456).ahAttr(AV_TO_PEER).sqPsn(0xFEDCBA);
    }

    @Test
    void eachStepCarriesExactlyTheMaskIbvModifyQpRequiresPerTransport() {
        for (Function<QpType, QpWalk> preset : PRESETS) {
            QpWalk rc = connected(preset.apply(QpType.RC));
            assertThat(rc.init().mask()).isEqualTo(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS));
            assertThat(rc.rtr().mask())
                    .isEqualTo(of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER));
            assertThat(rc.rts().mask()).isEqualTo(of(STATE, SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC));

            QpWalk uc = connected(preset.apply(QpType.UC));
            assertThat(uc.init().mask()).isEqualTo(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS));
            assertThat(uc.rtr().mask()).isEqualTo(of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN));
            assertThat(uc.rts().mask()).isEqualTo(of(STATE, SQ_PSN));

            for (QpType datagram : new QpType[] {QpType.UD, QpType.GSI}) {
                QpWalk ud = connected(preset.apply(datagram));
                assertThat(ud.init().mask()).as("%s", datagram).isEqualTo(of(STATE, PKEY_INDEX, PORT, QKEY));
                assertThat(ud.rtr().mask()).as("%s", datagram).isEqualTo(STATE.bit());
                assertThat(ud.rts().mask()).as("%s", datagram).isEqualTo(of(STATE, SQ_PSN));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = QpType.class, names = {"RC", "UC", "UD"})
    void theMasksAreTheTablesRequiredAttributesAndPassItsChecks(QpType type) {
        for (Function<QpType, QpWalk> preset : PRESETS) {
            QpWalk walk = connected(preset.apply(type));
            QpState state = QpState.RESET;
            for (QpAttr step : List.of(walk.init(), walk.rtr(), walk.rts())) {
                assertThat(step.mask()).as("%s %s→%s", type, state, step.qpState())
                        .isEqualTo(STATE.bit() | QpTransitions.required(type, state, step.qpState()));
                state = QpTransitions.check(type, state, step, step.mask());
            }
            assertThat(state).isEqualTo(QpState.RTS);
        }
    }

    @Test
    void theGsiQpsWalkPassesItsChecksWithQp1sQkey() {
        QpWalk gsi = QpWalk.of(QpType.GSI).qkey(Qkey.QP1);
        QpState state = QpState.RESET;
        for (QpAttr step : List.of(gsi.init(), gsi.rtr(), gsi.rts())) {
            state = QpTransitions.check(QpType.GSI, state, step, step.mask());
        }
        assertThat(state).isEqualTo(QpState.RTS);
    }

    @Test
    void rcPingpongHasRcPingpongsValues() {
        QpWalk p = QpWalk.rcPingpong(QpType.RC);
        assertThat(p.pkeyIndex()).isZero();
        assertThat(p.port()).isEqualTo(1);
        assertThat(p.accessFlags()).as("rc_pingpong's qp_access_flags").isZero();
        assertThat(p.pathMtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(p.maxDestRdAtomic()).isEqualTo(1);
        assertThat(p.minRnrTimer()).isEqualTo(12);
        assertThat(p.timeout()).isEqualTo(14);
        assertThat(p.retryCnt()).isEqualTo(7);
        assertThat(p.rnrRetry()).isEqualTo(7);
        assertThat(p.maxRdAtomic()).isEqualTo(1);
        assertThat(QpWalk.rcPingpong(QpType.UD).qkey()).as("ud_pingpong's Q_Key").isEqualTo(0x11111111);

        QpAttr rtr = connected(p).rtr();
        QpAttr rts = p.rts();
        assertThat(rtr.maxDestRdAtomic()).isEqualTo(1);
        assertThat(rtr.minRnrTimer()).isEqualTo(12);
        assertThat(rtr.pathMtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(rts.timeout()).isEqualTo(14);
        assertThat(rts.isTimeoutInfinite()).isFalse();
        assertThat(rts.retryCnt()).isEqualTo(7);
        assertThat(rts.rnrRetry()).isEqualTo(7);
        assertThat(rts.maxRdAtomic()).isEqualTo(1);
        assertThat(QpWalk.rcPingpong(QpType.UD).init().qkey()).isEqualTo(QpWalk.DEFAULT_QKEY);
    }

    @Test
    void perftestHasPerftestsValues() {
        QpWalk rc = QpWalk.perftest(QpType.RC);
        assertThat(rc.init().accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
        assertThat(QpWalk.perftest(QpType.UC).init().accessFlags())
                .isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        assertThat(QpWalk.perftest(QpType.UD).init().qkey()).as("DEF_QKEY").isEqualTo(0x11111111);
        assertThat(rc.pkeyIndex()).isZero();
        assertThat(rc.port()).isEqualTo(1);
        QpAttr rtr = connected(rc).rtr();
        QpAttr rts = rc.rts();
        assertThat(rtr.minRnrTimer()).isEqualTo(12);
        assertThat(rtr.maxDestRdAtomic()).as("jrdma perf -o's default").isEqualTo(16);
        assertThat(rts.timeout()).as("qp_timeout's default").isEqualTo(14);
        assertThat(rts.retryCnt()).isEqualTo(7);
        assertThat(rts.rnrRetry()).isEqualTo(7);
        assertThat(rts.maxRdAtomic()).isEqualTo(16);
    }

    @Test
    void ofStartsFromZeroOnPortOneAtMtu1024() {
        QpWalk w = QpWalk.of(QpType.RC);
        assertThat(w.port()).isEqualTo(1);
        assertThat(w.pathMtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(w.ahAttr()).as("no peer until one is set").isNull();
        assertThat(new int[] {w.pkeyIndex(), w.accessFlags(), w.qkey(), w.destQpNum(), w.rqPsn(), w.maxDestRdAtomic(),
                w.minRnrTimer(), w.sqPsn(), w.timeout(), w.retryCnt(), w.rnrRetry(), w.maxRdAtomic()})
                .containsOnly(0);
    }

    @Test
    void everyValueSetLandsInItsStep() {
        AhAttr av = AhAttr.roce(Gid.fromHex("00000000000000000000ffff7f4d0009"), 2, 3);
        QpWalk w = QpWalk.rcPingpong(QpType.RC).pkeyIndex(1).port(3).accessFlags(AccessFlags.REMOTE_READ)
                .pathMtu(Mtu.MTU_4096).destQpNum(0x4321).rqPsn(0x11).ahAttr(av).maxDestRdAtomic(8).minRnrTimer(1)
                .sqPsn(0x22).timeout(12).retryCnt(3).rnrRetry(5).maxRdAtomic(4);
        QpAttr init = w.init();
        assertThat(init.qpState()).isEqualTo(QpState.INIT);
        assertThat(init.pkeyIndex()).isEqualTo(1);
        assertThat(init.port()).isEqualTo(3);
        assertThat(init.accessFlags()).isEqualTo(AccessFlags.REMOTE_READ);
        QpAttr rtr = w.rtr();
        assertThat(rtr.qpState()).isEqualTo(QpState.RTR);
        assertThat(rtr.pathMtu()).isEqualTo(Mtu.MTU_4096);
        assertThat(rtr.destQpNum()).isEqualTo(0x4321);
        assertThat(rtr.rqPsn()).isEqualTo(0x11);
        assertThat(rtr.ahAttr()).isSameAs(av);
        assertThat(rtr.maxDestRdAtomic()).isEqualTo(8);
        assertThat(rtr.minRnrTimer()).isEqualTo(1);
        QpAttr rts = w.rts();
        assertThat(rts.qpState()).isEqualTo(QpState.RTS);
        assertThat(rts.sqPsn()).isEqualTo(0x22);
        assertThat(rts.timeout()).isEqualTo(12);
        assertThat(rts.retryCnt()).isEqualTo(3);
        assertThat(rts.rnrRetry()).isEqualTo(5);
        assertThat(rts.maxRdAtomic()).isEqualTo(4);
        assertThat(QpWalk.of(QpType.UD).qkey(0x1234ABCD).init().qkey()).isEqualTo(0x1234ABCD);
    }

    @Test
    void eachStepIsANewAttrThatLaterSettersDoNotChange() {
        QpWalk w = connected(QpWalk.rcPingpong(QpType.RC));
        QpAttr first = w.rts();
        w.sqPsn(7);
        assertThat(w.rts()).isNotSameAs(first);
        assertThat(first.sqPsn()).isEqualTo(0xFEDCBA);
        assertThat(w.rts().sqPsn()).isEqualTo(7);
    }

    @Test
    void toRtsModifiesInitRtrRtsInTurn() {
        List<QpAttr> modified = new ArrayList<>();
        QueuePair qp = (QueuePair) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {QueuePair.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("modify")) {
                        QpAttr attr = (QpAttr) args[0];
                        int mask = args.length == 2 ? (int) args[1] : attr.mask();
                        QpState from = modified.isEmpty() ? QpState.RESET : modified.getLast().qpState();
                        QpTransitions.check(QpType.UC, from, attr, mask);
                        modified.add(attr);
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        connected(QpWalk.rcPingpong(QpType.UC)).toRts(qp);
        assertThat(modified).extracting(QpAttr::qpState).containsExactly(QpState.INIT, QpState.RTR, QpState.RTS);
        assertThat(modified.get(1).destQpNum()).isEqualTo(0xABCDE);
        assertThat(modified.get(2).sqPsn()).isEqualTo(0xFEDCBA);
    }

    @Test
    void onlyTheTransportsItKnowsAreWalked() {
        for (QpType type : new QpType[] {QpType.RAW_PACKET, QpType.XRC_SEND, QpType.XRC_RECV}) {
            assertThatThrownBy(() -> QpWalk.of(type)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(type.name());
        }
        assertThatThrownBy(() -> QpWalk.rcPingpong(null)).isInstanceOf(NullPointerException.class);
    }
}
