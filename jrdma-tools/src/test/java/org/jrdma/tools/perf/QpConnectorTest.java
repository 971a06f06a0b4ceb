package org.jrdma.tools.perf;

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

import java.util.List;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.testkit.RecordingQp;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.Test;

/** The attributes and masks perf gives each step, exactly perftest's (ROCEV2-FACTS §6.5). */
class QpConnectorTest {
    private static final Gid PEER_GID = Gid.fromHex("00000000000000000000ffff7f4d0102");
    private static final KeyMessage PEER = new KeyMessage(0x21, 5, 0xABCDE, 0x123456, 0x1234, 0x7f0000001000L, PEER_GID, 0);

    private static List<RecordingQp.Modify> walk(QpType type) {
        RecordingQp rec = new RecordingQp(type, 0x42);
        QpConnector.toInit(rec.qp());
        QpConnector.toRtr(rec.qp(), Mtu.MTU_2048, PEER, 3, 6);
        QpConnector.toRts(rec.qp(), 0xFEDCBA, 4);
        return rec.modifies();
    }

    @Test
    void rcGetsPerftestsAttributes() {
        List<RecordingQp.Modify> steps = walk(QpType.RC);
        QpAttr init = steps.get(0).attr();
        assertThat(steps.get(0).mask()).isEqualTo(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS));
        assertThat(init.pkeyIndex()).isZero();
        assertThat(init.port()).isEqualTo(1);
        assertThat(init.accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
                | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);

        QpAttr rtr = steps.get(1).attr();
        assertThat(steps.get(1).mask())
                .isEqualTo(of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER));
        assertThat(rtr.pathMtu()).isEqualTo(Mtu.MTU_2048);
        assertThat(rtr.destQpNum()).isEqualTo(0xABCDE);
        assertThat(rtr.rqPsn()).isEqualTo(0x123456);
        assertThat(rtr.maxDestRdAtomic()).as("our -o").isEqualTo(6);
        assertThat(rtr.minRnrTimer()).isEqualTo(12);
        assertPerftestAv(rtr.ahAttr());

        QpAttr rts = steps.get(2).attr();
        assertThat(steps.get(2).mask()).isEqualTo(of(STATE, SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC));
        assertThat(rts.sqPsn()).isEqualTo(0xFEDCBA);
        assertThat(rts.timeout()).isEqualTo(14);
        assertThat(rts.retryCnt()).isEqualTo(7);
        assertThat(rts.rnrRetry()).isEqualTo(7);
        assertThat(rts.maxRdAtomic()).as("the peer's -o, clamped by the caller").isEqualTo(4);
    }

    @Test
    void ucGetsTheSubsetWithoutAcks() {
        List<RecordingQp.Modify> steps = walk(QpType.UC);
        assertThat(steps).extracting(RecordingQp.Modify::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN), of(STATE, SQ_PSN));
        assertThat(steps.get(0).attr().accessFlags()).isEqualTo(AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
        assertThat(steps.get(1).attr().pathMtu()).isEqualTo(Mtu.MTU_2048);
        assertThat(steps.get(1).attr().destQpNum()).isEqualTo(0xABCDE);
        assertThat(steps.get(1).attr().rqPsn()).isEqualTo(0x123456);
        assertPerftestAv(steps.get(1).attr().ahAttr());
        assertThat(steps.get(2).attr().sqPsn()).isEqualTo(0xFEDCBA);
    }

    @Test
    void udGetsTheQkeyAndNothingAtRtr() {
        List<RecordingQp.Modify> steps = walk(QpType.UD);
        assertThat(steps).extracting(RecordingQp.Modify::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, QKEY),
                STATE.bit(), of(STATE, SQ_PSN));
        assertThat(steps.get(0).attr().qkey()).as("DEF_QKEY").isEqualTo(0x11111111).isEqualTo(QpConnector.QKEY);
        assertThat(steps.get(0).attr().port()).isEqualTo(1);
        assertThat(steps.get(2).attr().sqPsn()).isEqualTo(0xFEDCBA);
    }

    /** Global to the peer's GID from our GID index, hop limit 0xFF, the peer's LID. */
    private static void assertPerftestAv(AhAttr av) {
        assertThat(av.isGlobal).isTrue();
        assertThat(av.dgid).isEqualTo(PEER_GID);
        assertThat(av.sgidIndex).isEqualTo(3);
        assertThat(av.portNum).isEqualTo(1);
        assertThat(av.hopLimit).isEqualTo(0xFF);
        assertThat(av.dlid).isEqualTo(0x21);
    }
}
