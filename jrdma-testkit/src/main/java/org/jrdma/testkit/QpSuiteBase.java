package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.verbs.QpState.ERR;
import static org.jrdma.verbs.QpState.INIT;
import static org.jrdma.verbs.QpState.RESET;
import static org.jrdma.verbs.QpState.RTR;
import static org.jrdma.verbs.QpState.RTS;
import static org.jrdma.verbs.QpState.SQD;

import java.lang.foreign.Arena;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Gid;
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
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the QP suites share: a PD, two CQs and a registered buffer per test, and fresh RC QPs
 * brought to any reachable state by legal steps.
 */
public abstract class QpSuiteBase extends ProviderSuite {
    static final QpType RC = QpType.RC;
    static final QpCap CAP = new QpCap(16, 16, 1, 1, 0);
    static final int PSN = 0x3A5C1;

    protected ProtectionDomain pd;
    protected CompletionQueue sendCq;
    protected CompletionQueue recvCq;
    protected MemoryRegion mr;
    protected Gid gid;
    protected Mtu mtu;

    @BeforeEach
    protected final void createQpResources() {
        pd = track(context.allocPd());
        sendCq = track(context.createCq(256, null));
        recvCq = track(context.createCq(256, null));
        Arena arena = track(Arena.ofShared());
        mr = track(pd.registerMemory(arena.allocate(4096, 4096), AccessFlags.LOCAL_WRITE, arena));
        gid = context.queryGid(fx.port(), fx.gidIndex());
        mtu = Mtu.MTU_1024.min(context.queryPort(fx.port()).activeMtu());
    }

    protected final QueuePair newQp() {
        return track(pd.createQp(new QpInitAttr().qpType(RC).sendCq(sendCq).recvCq(recvCq).cap(CAP)));
    }
    /** A fresh QP brought to {@code state} by legal steps; connected to itself from RTR on. */
    protected final QueuePair qpIn(QpState state) {
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
    protected final RecvWorkRequest recv(long wrId) {
        return new RecvWorkRequest().wrId(wrId).sg(Sge.of(mr, 0, 64));
    }
    protected final SendWorkRequest send(long wrId, int flags) {
        return new SendWorkRequest().wrId(wrId).flags(flags).sg(Sge.of(mr, 0, 64));
    }
}
