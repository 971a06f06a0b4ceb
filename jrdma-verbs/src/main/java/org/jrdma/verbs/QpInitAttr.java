package org.jrdma.verbs;

import java.util.Objects;

/**
 * {@code struct ibv_qp_init_attr}: what create_qp needs. Defaults: RC, {@code QpCap(16, 16, 1, 1, 0)},
 * no SRQ, sq_sig_all off; the CQs must be set.
 */
public final class QpInitAttr {
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QpType qpType = QpType.RC;
    private QpCap cap = new QpCap(16, 16, 1, 1, 0);
    private boolean sqSigAll;
    private SharedReceiveQueue srq;

    /** Attributes at their defaults, with no CQs yet. */
    public QpInitAttr() {
    }

    /**
     * Sets send_cq.
     *
     * @param cq the CQ send completions go to
     * @return these attributes
     */
    public QpInitAttr sendCq(CompletionQueue cq) {
        this.sendCq = cq;
        return this;
    }

    /**
     * Sets recv_cq.
     *
     * @param cq the CQ receive completions go to
     * @return these attributes
     */
    public QpInitAttr recvCq(CompletionQueue cq) {
        this.recvCq = cq;
        return this;
    }

    /**
     * One CQ for both queues, as rc_pingpong does.
     *
     * @param cq the CQ send and receive completions go to
     * @return these attributes
     */
    public QpInitAttr cq(CompletionQueue cq) {
        return sendCq(cq).recvCq(cq);
    }

    /**
     * Sets qp_type.
     *
     * @param type the transport type
     * @return these attributes
     * @throws NullPointerException when {@code type} is null
     */
    public QpInitAttr qpType(QpType type) {
        this.qpType = Objects.requireNonNull(type);
        return this;
    }

    /**
     * Sets cap, the queue sizes asked for (the provider may grant more).
     *
     * @param cap the queue sizes
     * @return these attributes
     * @throws NullPointerException when {@code cap} is null
     */
    public QpInitAttr cap(QpCap cap) {
        this.cap = Objects.requireNonNull(cap);
        return this;
    }

    /**
     * Sets sq_sig_all: every send WR generates a completion, whatever its SIGNALED flag says.
     *
     * @param sigAll true for a completion per send WR
     * @return these attributes
     */
    public QpInitAttr sqSigAll(boolean sigAll) {
        this.sqSigAll = sigAll;
        return this;
    }

    /**
     * Sets srq: receives come from this SRQ instead of the QP's own receive queue.
     *
     * @param s the SRQ, of the same PD, or null for the QP's own receive queue
     * @return these attributes
     */
    public QpInitAttr srq(SharedReceiveQueue s) {
        this.srq = s;
        return this;
    }

    /** {@return the SRQ, or null} */
    public SharedReceiveQueue srq() {
        return srq;
    }

    /** {@return the send CQ, or null until set} */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /** {@return the receive CQ, or null until set} */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /** {@return the transport type (RC by default)} */
    public QpType qpType() {
        return qpType;
    }

    /** {@return the queue sizes asked for} */
    public QpCap cap() {
        return cap;
    }

    /** {@return whether every send WR generates a completion} */
    public boolean sqSigAll() {
        return sqSigAll;
    }
}
