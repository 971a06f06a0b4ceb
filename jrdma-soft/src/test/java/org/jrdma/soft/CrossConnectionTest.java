package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SEC-43 (RELIABILITY-SECURITY §6.4, ReDMArk A3): a server holds a connection per client; client
 * M learns client A's (rkey, va) and uses it on M's own connection. With one PD per client
 * (ReDMArk M5) or with A's memory behind a type 2 window bound to A's connection (M4), the
 * server refuses it — REM_ACCESS_ERR, no byte read or written — while A's own use works. The
 * control shows why the binding matters: with both connections in one PD, an rkey is a
 * capability for every connection of that PD.
 */
class CrossConnectionTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int RW = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ
            | AccessFlags.REMOTE_ATOMIC;

    enum Binding {
        /** A's region in A's PD; M's server-side QP in M's PD. */
        PD_PER_CLIENT,
        /** One PD; A's memory exposed only through a type 2 window bound to A's server-side QP. */
        TYPE_2_WINDOW,
        /** Control: one PD, a plain region — the rkey works on any connection of the PD. */
        SHARED_PD
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Binding.class)
    void sec43ClientMUsingClientAsRkeyOnItsOwnConnectionIsRefused(Binding binding) {
        try (Context server = FreshDevices.fresh("srv").open(); Context clients = FreshDevices.fresh("cli").open();
                Arena arena = Arena.ofShared()) {
            ProtectionDomain pdA = server.allocPd();
            ProtectionDomain pdM = binding == Binding.PD_PER_CLIENT ? server.allocPd() : pdA;
            ProtectionDomain cpd = clients.allocPd();
            CompletionQueue scq = server.createCq(16, null);
            CompletionQueue ccq = clients.createCq(16, null);
            QueuePair sa = qp(pdA, scq);
            QueuePair sm = qp(pdM, scq);
            QueuePair a = qp(cpd, ccq);
            QueuePair m = qp(cpd, ccq);
            connect(server, sa, a.qpNum(), clients);
            connect(clients, a, sa.qpNum(), server);
            connect(server, sm, m.qpNum(), clients);
            connect(clients, m, sm.qpNum(), server);

            MemorySegment secret = arena.allocate(4096, 64);
            secret.fill((byte) 0x42);
            MemoryRegion mr = pdA.registerMemory(secret, RW | AccessFlags.MW_BIND);
            MemoryRegion local = cpd.registerMemory(arena.allocate(4096, 64), RW);
            int rkey = mr.rkey();
            if (binding == Binding.TYPE_2_WINDOW) {
                MemoryWindow mw = pdA.allocMw(MwType.TYPE_2);
                SendWorkRequest bind = new SendWorkRequest().wrId(7).opcode(WrOpcode.BIND_MW).flags(SendFlags.SIGNALED);
                bind.mw = mw;
                bind.bind = new MwBind(mr, mr.addr(), 4096, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
                sa.postSend(bind); // bound to A's server-side QP
                rkey = bind.rkey;
                assertThat(poll(scq).status).as("the BIND_MW").isEqualTo(WcStatus.SUCCESS);
            }
            // A, the rightful client, reads its memory.
            assertThat(read(a, ccq, local, mr.addr(), rkey)).as("A on its own connection").isEqualTo(WcStatus.SUCCESS);
            // M tries the same (rkey, va) on its connection.
            local.segment().fill((byte) 0);
            WcStatus stolen = read(m, ccq, local, mr.addr(), rkey);
            if (binding == Binding.SHARED_PD) {
                assertThat(stolen).as("one PD for both: the rkey is a capability for both").isEqualTo(WcStatus.SUCCESS);
            } else {
                assertThat(stolen).as("M with A's rkey").isEqualTo(WcStatus.REM_ACCESS_ERR);
                assertThat(local.segment().asSlice(0, 64).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE))
                        .as("bytes M got").containsOnly(0);
                RcPair.await(() -> sm.query().qpState() == QpState.ERR, DEADLINE, "M's server-side QP in ERR");
                assertThat(sa.query().qpState()).as("A's connection is untouched").isEqualTo(QpState.RTS);
            }
        }
    }

    private static QueuePair qp(ProtectionDomain pd, CompletionQueue cq) {
        return pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(8, 8, 1, 1, 0)));
    }

    private static void connect(Context self, QueuePair qp, int remote, Context peer) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RW & ~AccessFlags.LOCAL_WRITE));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(0x77)
                .maxDestRdAtomic(4).minRnrTimer(12).ahAttr(AhAttr.roce(peer.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x77).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4));
    }

    private static WcStatus read(QueuePair qp, CompletionQueue cq, MemoryRegion local, long va, int rkey) {
        qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local, 0, 64)).rdma(va, rkey));
        return poll(cq).status;
    }

    private static WorkCompletion poll(CompletionQueue cq) {
        return RcPair.poll(cq, 1, DEADLINE).getFirst();
    }
}
