package org.jrdma.cm;

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

import java.net.InetAddress;
import java.util.List;
import org.jrdma.testkit.RecordingQp;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.Test;

/** The attributes and masks the CM gives each transition, all from its REQ and REP (§7.8). */
class CmQpTest {
    private static final InetAddress PEER = InetAddress.ofLiteral("127.77.1.2");

    /** A connection as ActiveSide or PassiveSide leaves it once the REQ and REP are in. */
    private static CmConn negotiated(int responderResources) {
        CmConn c = new CmConn(null, null);
        c.peer = PEER;
        c.mtu = Mtu.MTU_4096;
        c.remoteQpn = 0xABCDE;
        c.remotePsn = 0x123456;
        c.responderResources = responderResources;
        c.initiatorDepth = 3;
        c.ackTimeout = 17;
        c.retryCount = 6;
        c.rnrRetryCount = 5;
        return c;
    }

    private static List<RecordingQp.Modify> connect(QpType type, CmConn c) {
        RecordingQp rec = new RecordingQp(type, 0x42);
        CmQp.initialize(rec.qp(), c.seq);
        CmQp.toRts(rec.qp(), c);
        assertThat(rec.qp().state()).isEqualTo(QpState.RTS);
        return rec.modifies();
    }

    @Test
    void rcGetsRdmaCmsAttributesFromTheReqAndRep() {
        CmConn c = negotiated(2);
        List<RecordingQp.Modify> steps = connect(QpType.RC, c);
        assertThat(steps).extracting(RecordingQp.Modify::mask).containsExactly(
                of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                of(STATE, ACCESS_FLAGS),
                of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN, MAX_DEST_RD_ATOMIC, MIN_RNR_TIMER),
                of(STATE, SQ_PSN, TIMEOUT, RETRY_CNT, RNR_RETRY, MAX_QP_RD_ATOMIC));
        QpAttr init = steps.get(0).attr();
        assertThat(init.pkeyIndex()).isZero();
        assertThat(init.port()).isEqualTo(1);
        assertThat(init.accessFlags()).isEqualTo(AccessFlags.REMOTE_WRITE);
        assertThat(steps.get(1).attr().accessFlags()).as("we serve reads")
                .isEqualTo(AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);

        QpAttr rtr = steps.get(2).attr();
        assertThat(rtr.pathMtu()).isEqualTo(Mtu.MTU_4096);
        assertThat(rtr.destQpNum()).isEqualTo(0xABCDE);
        assertThat(rtr.rqPsn()).as("our own seq").isEqualTo(c.seq);
        assertThat(rtr.maxDestRdAtomic()).as("responder resources").isEqualTo(2);
        assertThat(rtr.minRnrTimer()).isZero();
        assertCmAv(rtr.ahAttr());

        QpAttr rts = steps.get(3).attr();
        assertThat(rts.sqPsn()).as("the peer's starting PSN").isEqualTo(0x123456);
        assertThat(rts.timeout()).isEqualTo(17);
        assertThat(rts.retryCnt()).isEqualTo(6);
        assertThat(rts.rnrRetry()).isEqualTo(5);
        assertThat(rts.maxRdAtomic()).as("initiator depth").isEqualTo(3);
    }

    @Test
    void rcThatServesNoReadsKeepsRemoteWriteAlone() {
        List<RecordingQp.Modify> steps = connect(QpType.RC, negotiated(0));
        assertThat(steps.get(1).attr().accessFlags()).isEqualTo(AccessFlags.REMOTE_WRITE);
        assertThat(steps.get(2).attr().maxDestRdAtomic()).isZero();
    }

    @Test
    void ucGetsTheSubsetWithoutAcks() {
        CmConn c = negotiated(2);
        List<RecordingQp.Modify> steps = connect(QpType.UC, c);
        assertThat(steps).extracting(RecordingQp.Modify::mask).containsExactly(
                of(STATE, PKEY_INDEX, PORT, ACCESS_FLAGS),
                of(STATE, ACCESS_FLAGS),
                of(STATE, AV, PATH_MTU, DEST_QPN, RQ_PSN),
                of(STATE, SQ_PSN));
        assertThat(steps.get(1).attr().accessFlags()).as("UC serves no reads").isEqualTo(AccessFlags.REMOTE_WRITE);
        assertThat(steps.get(2).attr().rqPsn()).isEqualTo(c.seq);
        assertCmAv(steps.get(2).attr().ahAttr());
        assertThat(steps.get(3).attr().sqPsn()).isEqualTo(0x123456);
    }

    @Test
    void udGoesToRtsAtCreateWithRdmaUdpQkey() {
        RecordingQp rec = new RecordingQp(QpType.UD, 0x42);
        CmQp.initialize(rec.qp(), 0x654321);
        List<RecordingQp.Modify> steps = rec.modifies();
        assertThat(steps).extracting(RecordingQp.Modify::mask).containsExactly(of(STATE, PKEY_INDEX, PORT, QKEY),
                STATE.bit(), of(STATE, SQ_PSN));
        assertThat(steps.get(0).attr().qkey()).as("RDMA_UDP_QKEY").isEqualTo(0x01234567);
        assertThat(steps.get(0).attr().port()).isEqualTo(1);
        assertThat(steps.get(2).attr().sqPsn()).isEqualTo(0x654321);
    }

    /** Global to the peer's address, SGID index 0, port 1, hop limit 64. */
    private static void assertCmAv(AhAttr av) {
        assertThat(av.isGlobal).isTrue();
        assertThat(av.dgid).isEqualTo(Gid.of(PEER));
        assertThat(av.sgidIndex).isZero();
        assertThat(av.portNum).isEqualTo(1);
        assertThat(av.hopLimit).isEqualTo(64);
    }
}
