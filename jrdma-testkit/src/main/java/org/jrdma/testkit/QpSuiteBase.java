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
    /** For a provider's subclass, which supplies the fixture. */
    public QpSuiteBase() {
    }

    static final QpType RC = QpType.RC;
    static final QpCap CAP = new QpCap(16, 16, 1, 1, 0);
    static final int PSN = 0x3A5C1;

    /** The test's PD. */
    protected ProtectionDomain pd;
    /** The CQ the QPs' send queues complete to (256 entries). */
    protected CompletionQueue sendCq;
    /** The CQ the QPs' receive queues complete to (256 entries). */
    protected CompletionQueue recvCq;
    /** A 4 KiB MR with LOCAL_WRITE access. */
    protected MemoryRegion mr;
    /** The port's GID at the fixture's GID index. */
    protected Gid gid;
    /** The path MTU: 1024 or the port's active MTU if smaller. */
    protected Mtu mtu;

    /** Before each test: the PD, the CQs, the MR, the GID and the MTU. */
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

    /**
     * A fresh RC QP in RESET on the test's CQs, closed after the test.
     *
     * @return the QP
     */
    protected final QueuePair newQp() {
        return track(pd.createQp(new QpInitAttr().qpType(RC).sendCq(sendCq).recvCq(recvCq).cap(CAP)));
    }
    /**
     * A fresh QP brought to {@code state} by legal steps; connected to itself from RTR on.
     *
     * @param state RESET, INIT, RTR, RTS, SQD or ERR
     * @return the QP, in {@code state}
     * @throws IllegalArgumentException for a state an RC QP cannot be brought to this way
     */
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
    /**
     * A receive of 64 bytes into the MR.
     *
     * @param wrId the work request ID
     * @return the work request
     */
    protected final RecvWorkRequest recv(long wrId) {
        return new RecvWorkRequest().wrId(wrId).sg(Sge.of(mr, 0, 64));
    }
    /**
     * A SEND of the MR's first 64 bytes.
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @return the work request
     */
    protected final SendWorkRequest send(long wrId, int flags) {
        return new SendWorkRequest().wrId(wrId).flags(flags).sg(Sge.of(mr, 0, 64));
    }
}
