package org.jrdma.verbs;

/**
 * {@code struct ibv_send_wr}. Mutable and reusable: a provider copies what it needs when the
 * WR is posted, so the caller may change it right after {@code postSend} returns.
 *
 * <p>{@link #next} chains WRs into a post list, as {@code ibv_send_wr.next} does:
 * {@link QueuePair#postSend} posts the whole chain, in order, as one call (see there for what a
 * failure part-way leaves posted).
 */
public final class SendWorkRequest {
    /** wr_id: the caller's id for the WR, returned in its completion's {@link WorkCompletion#wrId}. */
    public long wrId;
    /** opcode: what the WR does; SEND by default. */
    public WrOpcode opcode = WrOpcode.SEND;
    /** {@link SendFlags} bits. */
    public int sendFlags;
    /** sg_list and num_sge: the local buffers sent, written, or read into. */
    public final SgList sgList = new SgList();
    /** Immediate data, in network byte order as on the wire (ibv_send_wr.imm_data is __be32). */
    public int immData;
    /** RDMA and atomics: the remote address (wr.rdma.remote_addr, wr.atomic.remote_addr). */
    public long remoteAddr;
    /** RDMA and atomics: the rkey of the remote region or window. */
    public int rkey;
    /** Atomics: the compare value (CMP_AND_SWP) or the value to add (FETCH_AND_ADD). */
    public long compareAdd;
    /** Atomics: the value CMP_AND_SWP writes when the compare matches. */
    public long swap;
    /** UD: the destination's address handle (wr.ud.ah). */
    public AddressHandle ah;
    /** UD: the destination QP number (wr.ud.remote_qpn). */
    public int remoteQpn;
    /** UD: the destination's Q_Key (wr.ud.remote_qkey); a controlled one is replaced by the QP's own. */
    public int remoteQkey;
    /** SEND_WITH_INV / LOCAL_INV: the rkey to invalidate. */
    public int invalidateRkey;
    /** BIND_MW (type 2): the window. */
    public MemoryWindow mw;
    /** BIND_MW (type 2): what to bind the window to. */
    public MwBind bind;
    /** The next WR of a post list, or null: this one ends it. */
    public SendWorkRequest next;

    /** An empty SEND: wr_id 0, no flags, no buffers, no next. */
    public SendWorkRequest() {
    }

    /**
     * Sets {@link #wrId}.
     *
     * @param id the id its completion carries
     * @return this WR
     */
    public SendWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /**
     * Sets {@link #opcode}.
     *
     * @param op what the WR does
     * @return this WR
     */
    public SendWorkRequest opcode(WrOpcode op) {
        this.opcode = op;
        return this;
    }

    /**
     * Sets {@link #sendFlags}.
     *
     * @param sendFlags {@link SendFlags} bits (replacing those set before)
     * @return this WR
     */
    public SendWorkRequest flags(int sendFlags) {
        this.sendFlags = sendFlags;
        return this;
    }

    /**
     * A one-entry scatter/gather list; allocates nothing (varargs would make an array per call).
     *
     * @param sge the only buffer
     * @return this WR
     */
    public SendWorkRequest sg(Sge sge) {
        sgList.set(sge);
        return this;
    }

    /**
     * A scatter/gather list of these entries, in order (the array is referenced, not copied).
     *
     * @param sges the buffers
     * @return this WR
     */
    public SendWorkRequest sg(Sge... sges) {
        sgList.set(sges);
        return this;
    }

    /**
     * Sets {@link #immData} (for SEND_WITH_IMM and RDMA_WRITE_WITH_IMM).
     *
     * @param immDataBigEndian the immediate value, in network byte order
     * @return this WR
     */
    public SendWorkRequest imm(int immDataBigEndian) {
        this.immData = immDataBigEndian;
        return this;
    }

    /**
     * The remote side of an RDMA WRITE or READ.
     *
     * @param remoteAddr the remote address
     * @param rkey       the remote region's (or window's) rkey
     * @return this WR
     */
    public SendWorkRequest rdma(long remoteAddr, int rkey) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        return this;
    }

    /**
     * Atomics: CMP_AND_SWP compares the 8 bytes at {@code remoteAddr} with {@code compareAdd} and
     * writes {@code swap} when they match; FETCH_AND_ADD adds {@code compareAdd}. Either returns
     * the old value into the WR's local buffer.
     *
     * @param remoteAddr the remote address, 8-byte aligned
     * @param rkey       the remote region's (or window's) rkey
     * @param compareAdd the compare value (CMP_AND_SWP) or the addend (FETCH_AND_ADD)
     * @param swap       the value CMP_AND_SWP writes
     * @return this WR
     */
    public SendWorkRequest atomic(long remoteAddr, int rkey, long compareAdd, long swap) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        this.compareAdd = compareAdd;
        this.swap = swap;
        return this;
    }

    /**
     * UD: where the datagram goes.
     *
     * @param ah         the destination's address handle
     * @param remoteQpn  the destination QP number
     * @param remoteQkey the destination's Q_Key
     * @return this WR
     */
    public SendWorkRequest ud(AddressHandle ah, int remoteQpn, int remoteQkey) {
        this.ah = ah;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    /**
     * Chains {@code wr} after this one.
     *
     * @param wr the next WR of the post list, or null to end the list here
     * @return this WR
     */
    public SendWorkRequest next(SendWorkRequest wr) {
        this.next = wr;
        return this;
    }

    /** {@return whether {@link SendFlags#SIGNALED} is set} */
    public boolean signaled() {
        return (sendFlags & SendFlags.SIGNALED) != 0;
    }
}
