package org.jrdma.verbs;

/**
 * {@code struct ibv_recv_wr}: a receive buffer (scatter list) and the id its completion carries.
 * {@link #next} chains WRs into a post list, as {@code ibv_recv_wr.next} does: {@link
 * QueuePair#postRecv} and {@link SharedReceiveQueue#postRecv} post the whole chain, in order.
 */
public final class RecvWorkRequest {
    /** wr_id: the caller's id for the WR, returned in its completion's {@link WorkCompletion#wrId}. */
    public long wrId;
    /** sg_list and num_sge: where the incoming message is scattered. */
    public final SgList sgList = new SgList();
    /** The next WR of a post list, or null: this one ends it. */
    public RecvWorkRequest next;

    /** An empty WR: wr_id 0, no buffers, no next. */
    public RecvWorkRequest() {
    }

    /**
     * Sets {@link #wrId}.
     *
     * @param id the id its completion carries
     * @return this WR
     */
    public RecvWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /**
     * A one-entry scatter/gather list; allocates nothing (varargs would make an array per call).
     *
     * @param sge the only buffer
     * @return this WR
     */
    public RecvWorkRequest sg(Sge sge) {
        sgList.set(sge);
        return this;
    }

    /**
     * A scatter/gather list of these entries, in order (the array is referenced, not copied).
     *
     * @param sges the buffers
     * @return this WR
     */
    public RecvWorkRequest sg(Sge... sges) {
        sgList.set(sges);
        return this;
    }

    /**
     * Chains {@code wr} after this one.
     *
     * @param wr the next WR of the post list, or null to end the list here
     * @return this WR
     */
    public RecvWorkRequest next(RecvWorkRequest wr) {
        this.next = wr;
        return this;
    }
}
