package org.jrdma.verbs;

import java.util.Objects;

/** {@code struct ibv_qp_init_attr}: what create_qp needs. */
public final class QpInitAttr {
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QpType qpType = QpType.RC;
    private QpCap cap = new QpCap(16, 16, 1, 1, 0);
    private boolean sqSigAll;
    private SharedReceiveQueue srq;

    public QpInitAttr sendCq(CompletionQueue cq) {
        this.sendCq = cq;
        return this;
    }

    public QpInitAttr recvCq(CompletionQueue cq) {
        this.recvCq = cq;
        return this;
    }

    /** One CQ for both queues, as rc_pingpong does. */
    public QpInitAttr cq(CompletionQueue cq) {
        return sendCq(cq).recvCq(cq);
    }

    public QpInitAttr qpType(QpType type) {
        this.qpType = Objects.requireNonNull(type);
        return this;
    }

    public QpInitAttr cap(QpCap cap) {
        this.cap = Objects.requireNonNull(cap);
        return this;
    }

    /** Every send WR generates a completion, whatever its SIGNALED flag says. */
    public QpInitAttr sqSigAll(boolean sigAll) {
        this.sqSigAll = sigAll;
        return this;
    }

    /** Receives come from this SRQ instead of the QP's own receive queue. */
    public QpInitAttr srq(SharedReceiveQueue s) {
        this.srq = s;
        return this;
    }

    public SharedReceiveQueue srq() {
        return srq;
    }

    public CompletionQueue sendCq() {
        return sendCq;
    }

    public CompletionQueue recvCq() {
        return recvCq;
    }

    public QpType qpType() {
        return qpType;
    }

    public QpCap cap() {
        return cap;
    }

    public boolean sqSigAll() {
        return sqSigAll;
    }
}
