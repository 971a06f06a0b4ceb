package org.jrdma.testkit;

/**
 * Optional behaviour a provider may lack. A suite that needs one asks
 * {@link ProviderFixture#supports(Feature)} and skips (never fakes) the test when the answer is no.
 */
public enum Feature {
    /** RTS → SQD and the SQD state (send-queue drain). rxe has it; a provider may refuse it. */
    SQD("the send-queue-drained state (RTS → SQD)"),

    /** ibv_req_notify_cq(solicited_only = 1): only SOLICITED or error completions raise an event. */
    SOLICITED("solicited-only completion events"),

    /**
     * QPNs drawn at random (RELIABILITY-SECURITY SEC-04, DESIGN "Secure by default"). Hardware
     * and rxe hand out pool indices in sequence, so a native provider leaves this out.
     */
    RANDOM_QPN("QP numbers drawn at random rather than in sequence"),

    /**
     * Send completions carry byte_len = the WR's total length, as rxe reports them
     * (ROCEV2-FACTS §3.7); ibv_poll_cq.3 leaves byte_len of a send completion undefined.
     */
    SEND_COMPLETION_BYTE_LEN("byte_len on send completions"),

    /** RDMA_WRITE and RDMA_WRITE_WITH_IMM (ROCEV2-FACTS §1.4, opcodes 0x06–0x0B). */
    RDMA_WRITE("RDMA WRITE and WRITE_WITH_IMM"),

    /** RDMA_READ on RC QPs (ROCEV2-FACTS §4.3). */
    RDMA_READ("RDMA READ"),

    /** ATOMIC_CMP_AND_SWP and ATOMIC_FETCH_AND_ADD on 8-byte aligned remote words (RC). */
    ATOMICS("compare-and-swap and fetch-and-add"),

    /** IBV_SEND_INLINE up to the QP's granted max_inline_data. */
    INLINE("inline sends"),

    /** Unreliable datagram QPs and address handles (ibv_create_ah). */
    UD("UD queue pairs"),

    /** Unreliable connected QPs. */
    UC("UC queue pairs"),

    /** Shared receive queues (ibv_create_srq, ibv_post_srq_recv, the SRQ limit). */
    SRQ("shared receive queues"),

    /** Type 1 memory windows, bound with ibv_bind_mw and revoked by rebinding or dealloc. */
    MEMORY_WINDOW_TYPE_1("type 1 memory windows"),

    /** Type 2 memory windows: BIND_MW work requests, LOCAL_INV and SEND_WITH_INV (SEC-44). */
    MEMORY_WINDOW_TYPE_2("type 2 memory windows, LOCAL_INV and SEND_WITH_INV"),

    /** ibv_get_async_event: QP errors, SRQ limit, last WQE reached. */
    ASYNC_EVENTS("asynchronous events"),

    /** IBV_EVENT_COMM_EST when the first packet reaches a QP that is still in RTR. */
    COMM_EST("the communication-established event"),

    /**
     * retry_cnt 7 means seven retries, eight tries in all (the IBA reading, ROCEV2-FACTS §9);
     * rxe never decrements a counter at 7 and so retries for ever (§2.5, REL-13).
     */
    RETRY_CNT_7_FINITE("retry_cnt 7 as seven retries rather than infinite"),

    /**
     * A zero-length READ or WRITE is not checked against its rkey or range and succeeds, as in
     * rxe ("a zero-byte op is not required to set an addr or rkey", RELIABILITY-SECURITY §2.2,
     * SEC-45). Without it the provider must refuse it with REM_ACCESS_ERR like any bad rkey.
     */
    ZERO_LENGTH_RDMA_SKIPS_RKEY("zero-length READ/WRITE without an rkey check");

    private final String description;

    Feature(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
