package org.jrdma.verbs;

/** {@code struct ibv_recv_wr}: a receive buffer (scatter list) and the id its completion carries. */
public final class RecvWorkRequest {
    public long wrId;
    public final SgList sgList = new SgList();

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
}
