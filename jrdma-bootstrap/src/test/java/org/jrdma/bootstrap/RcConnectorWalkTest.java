package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
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

import java.util.ArrayList;
import java.util.List;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.spi.QpTransitions;
import org.junit.jupiter.api.Test;

/** The attributes and masks RcConnector gives each step: ibv_rc/uc/ud_pingpong's, with the options' values. */
class RcConnectorWalkTest {
    private static final ConnInfo PEER = new ConnInfo(0x21, 0x12, 0xe3de62, TestInfos.CLIENT.gid());

    private static List<QpAttr> connect(RcOptions options, List<Integer> stepsBeforeExchange, FakeVerbs verbs) {
        RcConnection c = RcConnector.connect(verbs.pd, (local, listener) -> {
            stepsBeforeExchange.add(verbs.qps.getFirst().attrs.size());
            return PEER;
        }, options);
        List<QpAttr> steps = verbs.qps.getFirst().attrs;
        QpState state = QpState.RESET;
        for (QpAttr step : steps) {
            state = QpTransitions.check(options.qpType(), state, step, step.mask());
        }
        assertThat(state).isEqualTo(QpState.RTS);
        assertThat(steps.getLast().sqPsn()).as("our PSN, as sent to the peer").isEqualTo(c.local().psn());
        return steps;
    }

    @Test
    void rcDefaultsAreRcPingpongsWithLocalWriteAndHopLimit64() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        List<QpAttr> steps = connect(RcOptions.defaults(verbs.cq), new ArrayList<>(), verbs);
        assertThat(steps).extracting(QpAttr::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER),
                of(STATE, SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC));
        QpAttr init = steps.get(0);
        assertThat(init.pkeyIndex()).isZero();
        assertThat(init.port()).isEqualTo(1);
        assertThat(init.accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE);
        QpAttr rtr = steps.get(1);
        assertThat(rtr.pathMtu()).isEqualTo(Mtu.MTU_1024);
        assertThat(rtr.destQpNum()).isEqualTo(0x12);
        assertThat(rtr.rqPsn()).isEqualTo(0xe3de62);
        assertThat(rtr.maxDestRdAtomic()).isEqualTo(1);
        assertThat(rtr.minRnrTimer()).isEqualTo(12);
        AhAttr av = rtr.ahAttr();
        assertThat(av.isGlobal).isTrue();
        assertThat(av.dgid).isEqualTo(PEER.gid());
        assertThat(av.dlid).isEqualTo(0x21);
        assertThat(av.sgidIndex).isZero();
        assertThat(av.portNum).isEqualTo(1);
        assertThat(av.hopLimit).isEqualTo(64);
        assertThat(av.sl).isZero();
        QpAttr rts = steps.get(2);
        assertThat(rts.timeout()).isEqualTo(14);
        assertThat(rts.retryCnt()).isEqualTo(7);
        assertThat(rts.rnrRetry()).isEqualTo(7);
        assertThat(rts.maxRdAtomic()).isEqualTo(1);
    }

    @Test
    void rcTakesTheOptionsValues() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        RcOptions o = RcOptions.defaults(verbs.cq).withMtu(Mtu.MTU_4096).withGidIndex(2)
                .withAccessFlags(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ).withTimeout(18).withRetry(3, 4)
                .withSl(5);
        List<QpAttr> steps = connect(o, new ArrayList<>(), verbs);
        assertThat(steps.get(0).accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ);
        assertThat(steps.get(1).pathMtu()).isEqualTo(Mtu.MTU_4096);
        assertThat(steps.get(1).ahAttr().sgidIndex).isEqualTo(2);
        assertThat(steps.get(1).ahAttr().sl).isEqualTo(5);
        assertThat(steps.get(2).timeout()).isEqualTo(18);
        assertThat(steps.get(2).retryCnt()).isEqualTo(3);
        assertThat(steps.get(2).rnrRetry()).isEqualTo(4);
    }

    @Test
    void ucTakesTheSubsetWithoutAcks() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        List<QpAttr> steps = connect(RcOptions.defaults(verbs.cq).withQpType(QpType.UC), new ArrayList<>(), verbs);
        assertThat(steps).extracting(QpAttr::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN), of(STATE, SQ_PSN));
        assertThat(steps.get(1).destQpNum()).isEqualTo(0x12);
        assertThat(steps.get(1).rqPsn()).isEqualTo(0xe3de62);
        assertThat(steps.get(1).ahAttr().dgid).isEqualTo(PEER.gid());
    }

    @Test
    void udIsInRtsWithThePingpongQkeyBeforeTheExchange() {
        FakeVerbs verbs = new FakeVerbs(TestInfos.SERVER.gid());
        List<Integer> stepsBeforeExchange = new ArrayList<>();
        List<QpAttr> steps = connect(RcOptions.defaults(verbs.cq).withQpType(QpType.UD), stepsBeforeExchange, verbs);
        assertThat(stepsBeforeExchange).containsExactly(3);
        assertThat(steps).extracting(QpAttr::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, QKEY), STATE.bit(),
                of(STATE, SQ_PSN));
        assertThat(steps.get(0).qkey()).isEqualTo(0x11111111);
    }
}
