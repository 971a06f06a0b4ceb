package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AddressHandle;
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
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** UD datagrams and UC messages on the soft provider. */
class UdUcTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final int QKEY = UdSelfSend.QKEY;

    @Test
    void udDatagramsLandAfterTheGrhAreaWithTheSourceQpn() {
        SoftDevice dev = FreshDevices.fresh("ud");
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            UdSelfSend u = UdSelfSend.run(ctx, arena, DEADLINE);
            WorkCompletion recv = u.recv();
            QueuePair a = u.a();
            QueuePair b = u.b();
            CompletionQueue cq = u.cq();
            MemorySegment buf = u.buf();
            MemoryRegion mr = u.mr();
            AddressHandle ah = u.ah();
            assertThat(recv.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.byteLen).isEqualTo(140);
            assertThat(recv.srcQp).isEqualTo(a.qpNum());
            assertThat(recv.immData).isEqualTo(42);
            assertThat(recv.wcFlags & WcFlags.GRH).isNotZero();
            // GRH area: 20 zero bytes, then an IPv4 header (version 4, IHL 5, protocol UDP).
            assertThat(buf.asSlice(4096, 20).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
            assertThat(buf.get(ValueLayout.JAVA_BYTE, 4096 + 20)).isEqualTo((byte) 0x45);
            assertThat(buf.get(ValueLayout.JAVA_BYTE, 4096 + 29)).isEqualTo((byte) 17);
            assertThat(u.payloadIntact()).isTrue();

            // A wrong Q_Key is dropped silently; too large a datagram is refused at post.
            b.postRecv(new RecvWorkRequest().wrId(7).sg(Sge.of(mr, 4096, 1024)));
            a.postSend(new SendWorkRequest().wrId(8).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 10)).ud(ah, b.qpNum(), QKEY + 1));
            assertThat(RcPair.poll(cq, 2, Duration.ofMillis(200))).extracting(w -> w.wrId).containsExactly(8L);
            assertThatThrownBy(() -> a.postSend(new SendWorkRequest().wrId(9).sg(Sge.of(mr, 0, 4097)).ud(ah, b.qpNum(), QKEY)))
                    .isInstanceOf(VerbsException.class).hasMessageContaining("exceeds the MTU");
        }
    }

    @Test
    void ucMessagesArriveWithoutAcksAndALostOneIsJustLost() {
        FilteringDatagrams[] made = new FilteringDatagrams[1];
        int ucSendMiddle = 0x21;
        boolean[] once = {false};
        SoftDevice dev = FreshDevices.fresh("uc", SoftOptions.defaults().datagrams(FilteringDatagrams.factory((i, op, psn) -> {
            if (op == ucSendMiddle && !once[0]) {
                once[0] = true;
                return true;
            }
            return false;
        }, made)));
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(64, null);
            QueuePair a = pd.createQp(new QpInitAttr().qpType(QpType.UC).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
            QueuePair b = pd.createQp(new QpInitAttr().qpType(QpType.UC).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
            uc(ctx, a, b.qpNum());
            uc(ctx, b, a.qpNum());
            MemorySegment buf = arena.allocate(1 << 16);
            MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE);
            b.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(mr, 32768, 8192)));
            b.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(mr, 40960, 8192)));
            a.postSend(new SendWorkRequest().wrId(10).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 3000))); // loses a MIDDLE
            a.postSend(new SendWorkRequest().wrId(11).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, 2000)));
            List<WorkCompletion> wcs = RcPair.poll(cq, 3, DEADLINE);
            assertThat(wcs).extracting(w -> w.wrId).containsExactlyInAnyOrder(10L, 11L, 1L);
            WorkCompletion recv = wcs.stream().filter(w -> w.wrId == 1).findFirst().orElseThrow();
            assertThat(recv.byteLen).as("the first receive got the second message").isEqualTo(2000);
            assertThat(((SoftContext) ctx).hca().countersSnapshot().get("acks_sent")).isZero();
            assertThat(RcPair.poll(cq, 1, Duration.ofMillis(100))).isEmpty();
            assertThatThrownBy(() -> a.postSend(new SendWorkRequest().wrId(12).opcode(WrOpcode.RDMA_READ).sg(Sge.of(mr, 0, 8))
                    .rdma(mr.addr(), mr.rkey()))).isInstanceOf(VerbsException.class).hasMessageContaining("UC");
        }
    }

    private static void uc(Context ctx, QueuePair qp, int remote) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(AccessFlags.REMOTE_WRITE));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remote).rqPsn(7)
                .ahAttr(AhAttr.roce(ctx.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(7));
    }
}
