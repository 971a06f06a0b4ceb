package org.jrdma.verbs;

/** {@code struct ibv_qp}: a send queue and a receive queue (or an SRQ) of one transport type. */
public interface QueuePair extends AutoCloseable {
    /** {@return the 24-bit QP number (random; never 0, 1 or 0xFFFFFF, except the GSI QP's 1)} */
    int qpNum();

    /** {@return the transport type it was created with} */
    QpType qpType();

    /** {@return the current state (an error can move it to ERR or SQE on its own)} */
    QpState state();

    /** {@return the protection domain it was created in} */
    ProtectionDomain pd();

    /** {@return the CQ its send completions go to} */
    CompletionQueue sendCq();

    /** {@return the CQ its receive completions go to} */
    CompletionQueue recvCq();

    /** {@return this QP's transport counters (packets, retransmissions, NAKs …); empty when the provider keeps none} */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /**
     * ibv_modify_qp with the attributes set on {@code attr} through its fluent setters.
     * Illegal transitions and missing or unexpected attributes fail with EINVAL and a message
     * naming them; nothing is modified then.
     *
     * @param attr the attributes, with the mask its setters built
     * @throws VerbsException EINVAL (EPERM for a controlled Q_Key) as {@link
     *     org.jrdma.verbs.spi.QpTransitions#check} says
     */
    default void modify(QpAttr attr) {
        modify(attr, attr.mask());
    }

    /**
     * ibv_modify_qp with an explicit {@link QpAttrMask} mask; fails as {@link #modify(QpAttr)} does.
     *
     * @param attr     the attribute values
     * @param attrMask the {@link QpAttrMask} bits of the attributes to apply
     */
    void modify(QpAttr attr, int attrMask);

    /** {@return ibv_query_qp's current attributes (all of them; the mask is informational)} */
    QpAttr query();

    /** {@return the capabilities granted at create time} */
    QpCap cap();

    /**
     * ibv_post_recv: EINVAL in RESET, ENOMEM when the receive queue is full. Posts {@code wr} and
     * every WR its {@link RecvWorkRequest#next} chain leads to, in order, as one post; fails as
     * {@link #postSend} does.
     *
     * @param wr the head of the list to post
     * @throws PostException naming the first WR not posted; those before it were posted
     */
    void postRecv(RecvWorkRequest wr);

    /**
     * ibv_post_send: EINVAL before RTS, ENOMEM when the send queue is full. Posts {@code wr} and
     * every WR its {@link SendWorkRequest#next} chain leads to, in order, as one post (one
     * doorbell): like ibv_post_send with {@code wr->next}. When a WR of the list is refused, the
     * ones before it stay posted and complete as usual, it and the rest are not posted, and the
     * {@link PostException} names it ({@code bad_wr}) and how many were posted. A cyclic list is
     * refused with EINVAL before anything is posted. A single WR ({@code next == null}) is a list
     * of one.
     *
     * @param wr the head of the list to post
     * @throws PostException naming the first WR not posted; those before it were posted
     */
    void postSend(SendWorkRequest wr);

    /**
     * ibv_bind_mw for a type-1 window: posts a bind on this QP's send queue; the window's new
     * rkey is returned at once and valid once the bind completes (a BIND_MW completion when
     * {@code signaled}).
     *
     * @param mw       a type-1 window of this QP's PD
     * @param bind     the region, range and access to bind to (length 0 unbinds)
     * @param wrId     the wr_id of the bind's completion
     * @param signaled whether the bind generates a completion
     * @return the window's new rkey
     * @throws VerbsException EOPNOTSUPP when the provider has no memory windows
     */
    default int bindMw(MemoryWindow mw, MwBind bind, long wrId, boolean signaled) {
        throw VerbsException.unsupported("bind_mw");
    }

    /** ibv_destroy_qp. */
    @Override
    void close();
}
