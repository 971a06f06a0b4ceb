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
    public long wrId;
    public WrOpcode opcode = WrOpcode.SEND;
    /** {@link SendFlags} bits. */
    public int sendFlags;
    public final SgList sgList = new SgList();
    /** Immediate data, in network byte order as on the wire (ibv_send_wr.imm_data is __be32). */
    public int immData;
    /** RDMA: remote address and rkey (WRITE/READ). */
    public long remoteAddr;
    public int rkey;
    /** Atomics: compare (CMP_AND_SWP) and swap-or-add values. */
    public long compareAdd;
    public long swap;
    /** UD: destination address, QPN and Q_Key. */
    public AddressHandle ah;
    public int remoteQpn;
    public int remoteQkey;
    /** SEND_WITH_INV / LOCAL_INV: the rkey to invalidate. */
    public int invalidateRkey;
    /** BIND_MW (type 2): the window, and what to bind it to. */
    public MemoryWindow mw;
    public MwBind bind;
    /** The next WR of a post list, or null: this one ends it. */
    public SendWorkRequest next;

    public SendWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    public SendWorkRequest opcode(WrOpcode op) {
        this.opcode = op;
        return this;
    }

    public SendWorkRequest flags(int sendFlags) {
        this.sendFlags = sendFlags;
        return this;
    }

    /** A one-entry scatter/gather list; allocates nothing (varargs would make an array per call). */
    public SendWorkRequest sg(Sge sge) {
        sgList.set(sge);
        return this;
    }

    public SendWorkRequest sg(Sge... sges) {
        sgList.set(sges);
        return this;
    }

    public SendWorkRequest imm(int immDataBigEndian) {
        this.immData = immDataBigEndian;
        return this;
    }

    public SendWorkRequest rdma(long remoteAddr, int rkey) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        return this;
    }

    /** Atomics: CMP_AND_SWP compares with {@code compare} and writes {@code swap}; FETCH_AND_ADD adds {@code compareAdd}. */
    public SendWorkRequest atomic(long remoteAddr, int rkey, long compareAdd, long swap) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        this.compareAdd = compareAdd;
        this.swap = swap;
        return this;
    }

    /** UD: where the datagram goes. */
    public SendWorkRequest ud(AddressHandle ah, int remoteQpn, int remoteQkey) {
        this.ah = ah;
        this.remoteQpn = remoteQpn;
        this.remoteQkey = remoteQkey;
        return this;
    }

    /** Chains {@code wr} after this one (null ends the list here); returns this WR. */
    public SendWorkRequest next(SendWorkRequest wr) {
        this.next = wr;
        return this;
    }

    public boolean signaled() {
        return (sendFlags & SendFlags.SIGNALED) != 0;
    }
}
