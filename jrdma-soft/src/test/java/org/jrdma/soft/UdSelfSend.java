package org.jrdma.soft;

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
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * One UD SEND_WITH_IMM (imm 42) of {@link #LENGTH} patterned bytes from UD QP {@code a} to UD
 * QP {@code b} of the same device, through its own GID: what the IPv4 (UdUcTest) and IPv6
 * (Ipv6DeviceTest) UD tests both start with. The receive lands at {@link #RECV_AT} of
 * {@code buf}: the 40-byte GRH area, then the payload.
 */
record UdSelfSend(QueuePair a, QueuePair b, CompletionQueue cq, MemorySegment buf, MemoryRegion mr,
        AddressHandle ah, WorkCompletion recv) {
    static final int QKEY = 0x11111111;
    static final int LENGTH = 100;
    static final int RECV_AT = 4096;

    static UdSelfSend run(Context ctx, Arena arena, Duration deadline) {
        ProtectionDomain pd = ctx.allocPd();
        CompletionQueue cq = ctx.createCq(64, null);
        QueuePair a = ud(pd, cq);
        QueuePair b = ud(pd, cq);
        MemorySegment buf = arena.allocate(8192);
        MemoryRegion mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < LENGTH; i++) {
            buf.set(ValueLayout.JAVA_BYTE, i, (byte) (i + 1));
        }
        AddressHandle ah = pd.createAh(AhAttr.roce(ctx.queryGid(1, 0), 0, 1));
        b.postRecv(new RecvWorkRequest().wrId(5).sg(Sge.of(mr, RECV_AT, 1024)));
        a.postSend(new SendWorkRequest().wrId(6).opcode(WrOpcode.SEND_WITH_IMM).imm(42).flags(SendFlags.SIGNALED)
                .sg(Sge.of(mr, 0, LENGTH)).ud(ah, b.qpNum(), QKEY));
        List<WorkCompletion> wcs = RcPair.poll(cq, 2, deadline);
        WorkCompletion recv = wcs.stream().filter(w -> w.wrId == 5).findFirst().orElseThrow();
        return new UdSelfSend(a, b, cq, buf, mr, ah, recv);
    }

    /** A UD QP at RTS with Q_Key {@link #QKEY}. */
    static QueuePair ud(ProtectionDomain pd, CompletionQueue cq) {
        QueuePair qp = pd.createQp(new QpInitAttr().qpType(QpType.UD).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY));
        qp.modify(new QpAttr().state(QpState.RTR));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(1));
        return qp;
    }

    /** Whether the payload after the GRH area is the bytes sent. */
    boolean payloadIntact() {
        return buf.asSlice(RECV_AT + 40, LENGTH).mismatch(buf.asSlice(0, LENGTH)) == -1;
    }
}
