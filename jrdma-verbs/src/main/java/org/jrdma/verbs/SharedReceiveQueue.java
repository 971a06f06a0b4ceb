package org.jrdma.verbs;

/**
 * {@code struct ibv_srq}: receive WRs shared by the QPs created with it. When the number of
 * posted WRs drops below the armed limit, one {@link AsyncEventType#SRQ_LIMIT_REACHED} event
 * fires and the limit disarms (ibv_modify_srq.3).
 */
public interface SharedReceiveQueue extends AutoCloseable {
    /**
     * ibv_post_srq_recv: ENOMEM when full. Posts the whole {@link RecvWorkRequest#next} chain in
     * order, as {@link QueuePair#postSend} posts a send list (the same failure rules).
     *
     * @param wr the head of the list to post
     * @throws PostException naming the first WR not posted; those before it were posted
     */
    void postRecv(RecvWorkRequest wr);

    /**
     * ibv_modify_srq with IBV_SRQ_LIMIT: arms (or, with 0, disarms) the limit event.
     *
     * @param srqLimit the event fires when fewer WRs than this remain posted; 0 disarms
     */
    void armLimit(int srqLimit);

    /** {@return ibv_query_srq's max_wr, max_sge and the current limit (0 once it fired)} */
    SrqInitAttr query();

    /** ibv_destroy_srq: EBUSY while a QP uses it. */
    @Override
    void close();
}
