package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

class SoftSmokeTest {
    @Test
    void sendRecvBetweenTwoQpsOfOneDevice() throws Exception {
        SoftDevice dev = FreshDevices.fresh("smoke");
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(64, null);
            QueuePair a = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
            QueuePair b = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
            int size = 5000;
            MemorySegment sbuf = arena.allocate(size);
            MemorySegment rbuf = arena.allocate(size);
            for (int i = 0; i < size; i++) {
                sbuf.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
            }
            MemoryRegion smr = pd.registerMemory(sbuf, AccessFlags.LOCAL_WRITE);
            MemoryRegion rmr = pd.registerMemory(rbuf, AccessFlags.LOCAL_WRITE);
            connect(ctx, a, b.qpNum(), 100, 200);
            connect(ctx, b, a.qpNum(), 200, 100);
            assertThat(a.state()).isEqualTo(QpState.RTS);
            b.postRecv(new RecvWorkRequest().wrId(7).sg(Sge.of(rmr)));
            a.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.SEND_WITH_IMM).imm(0x01020304)
                    .flags(SendFlags.SIGNALED).sg(Sge.of(smr)));
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion()};
            int got = 0;
            WorkCompletion send = null;
            WorkCompletion recv = null;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (got < 2 && System.nanoTime() < deadline) {
                WorkCompletion[] one = {new WorkCompletion()};
                if (cq.poll(one) == 1) {
                    got++;
                    if (one[0].opcode == WcOpcode.RECV) {
                        recv = one[0];
                    } else {
                        send = one[0];
                    }
                }
            }
            assertThat(send).isNotNull();
            assertThat(recv).isNotNull();
            assertThat(send.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.byteLen).isEqualTo(size);
            assertThat(recv.immData).isEqualTo(0x01020304);
            assertThat(rbuf.mismatch(sbuf)).isEqualTo(-1);
        }
    }

    static void connect(Context ctx, QueuePair qp, int remoteQpn, int sqPsn, int rqPsn) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remoteQpn).rqPsn(rqPsn)
                .maxDestRdAtomic(1).minRnrTimer(12).ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
