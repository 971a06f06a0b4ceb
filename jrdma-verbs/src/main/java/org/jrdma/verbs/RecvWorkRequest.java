package org.jrdma.verbs;

/**
 * {@code struct ibv_recv_wr}: a receive buffer (scatter list) and the id its completion carries.
 * {@link #next} chains WRs into a post list, as {@code ibv_recv_wr.next} does: {@link
 * QueuePair#postRecv} and {@link SharedReceiveQueue#postRecv} post the whole chain, in order.
 */
public final class RecvWorkRequest {
    public long wrId;
    public final SgList sgList = new SgList();
    /** The next WR of a post list, or null: this one ends it. */
    public RecvWorkRequest next;

    public RecvWorkRequest wrId(long id) {
        this.wrId = id;
        return this;
    }

    /** A one-entry scatter/gather list; allocates nothing (varargs would make an array per call). */
    public RecvWorkRequest sg(Sge sge) {
        sgList.set(sge);
        return this;
    }

    public RecvWorkRequest sg(Sge... sges) {
        sgList.set(sges);
        return this;
    }

    /** Chains {@code wr} after this one (null ends the list here); returns this WR. */
    public RecvWorkRequest next(RecvWorkRequest wr) {
        this.next = wr;
        return this;
    }
}
