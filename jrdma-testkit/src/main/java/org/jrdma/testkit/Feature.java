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
    ZERO_LENGTH_RDMA_SKIPS_RKEY("zero-length READ/WRITE without an rkey check"),

    /*
     * The rest are spec behaviour that a device may not follow; each names what Linux rxe
     * (kernel 6.1, rdma-core 44, the lab) does instead, so that a native run says why it skips.
     */

    /**
     * A SEND longer than its receive is NAKed invalid request: REM_INV_REQ_ERR at the requester
     * (RELIABILITY-SECURITY §2 table, rdma-unit-test SendWithTooSmallRecv). rxe NAKs it remote
     * operational error (REM_OP_ERR).
     */
    SEND_TOO_LONG_IS_INVALID_REQUEST("a too-long SEND completes REM_INV_REQ_ERR and its receive LOC_LEN_ERR"
            + " (rxe 6.1: REM_OP_ERR and LOC_QP_OP_ERR)"),

    /**
     * A local SGE with an invalid lkey completes LOC_PROT_ERR (ROCEV2-FACTS §3.6). rxe says
     * LOC_QP_OP_ERR for the SGEs its requester gathers (SEND, WRITE) and its responder scatters.
     */
    BAD_LKEY_IS_LOCAL_PROTECTION_ERROR("a bad local lkey completes LOC_PROT_ERR (rxe 6.1: LOC_QP_OP_ERR)"),

    /**
     * Receive WRs posted to a QP in ERR complete with WR_FLUSH_ERR (ROCEV2-FACTS §3.5, REL-18, the
     * drain beacon of REL-19). Kernel 6.1's rxe flushes sends posted in ERR but leaves receives
     * queued: nothing runs its responder until a packet arrives.
     */
    FLUSH_RECV_POSTED_IN_ERR("receives posted in ERR completed with WR_FLUSH_ERR (rxe 6.1 leaves them queued)"),

    /**
     * A post beyond the granted max_send_wr / max_recv_wr fails with ENOMEM at once. A device
     * may hold more than it granted or retire sends while the test posts (rxe accepted one more).
     */
    QUEUE_FULL_AT_GRANTED_CAP("ENOMEM exactly one post past the granted queue depth (rxe 6.1 accepts more)"),

    /**
     * An access through a memory window is checked against the window's range (IBA 10.6.7,
     * SEC-44). rxe 6.1 checks it against the underlying MR's range only.
     */
    MW_RANGE_CHECKED("accesses through a window bounded by the window (rxe 6.1 bounds them by its MR)"),

    /**
     * A receive of SEND_WITH_INV carries IBV_WC_WITH_INV. rxe with rdma-core 44 passes the kernel's
     * IB_WC_WITH_INVALIDATE bit ({@code 1 << 2}) through, which ibverbs reads as IBV_WC_IP_CSUM_OK.
     */
    WC_WITH_INV_FLAG("IBV_WC_WITH_INV on SEND_WITH_INV receives (rxe 6.1 sets the kernel's bit 2 instead)"),

    /**
     * A misaligned atomic reaches the responder and is NAKed invalid request. rxe's library
     * refuses it at ibv_post_send with EINVAL instead (a local check the spec does not require).
     */
    MISALIGNED_ATOMIC_POSTED("misaligned atomics posted and NAKed by the responder (rxe refuses them at post, EINVAL)"),

    /** A UD send longer than the path MTU fails (LOC_LEN_ERR or at post). rxe 6.1 sends it. */
    UD_LENGTH_CHECKED("UD sends longer than the MTU refused (rxe 6.1 sends them)"),

    /**
     * The IPv4 header a RoCE device writes into a UD receive's GRH area has a valid checksum. rxe
     * short-circuits packets to its own netdev before the checksum is computed.
     */
    GRH_IPV4_CHECKSUM("a valid IPv4 header checksum in the GRH area (rxe loopback leaves it unset)"),

    /**
     * A responder moved to ERR by a remote request raises a QP error event (QP_FATAL, QP_REQ_ERR
     * or QP_ACCESS_ERR, IBA 11.6.3). rxe 6.1 moves the QP to ERR and raises none.
     */
    QP_ERROR_EVENTS("QP error events when a remote request moves a QP to ERR (rxe 6.1 raises none)"),

    /** A QP on an SRQ that enters ERR raises IBV_EVENT_QP_LAST_WQE_REACHED (IBA 11.6.3). rxe 6.1 does not. */
    LAST_WQE_REACHED("IBV_EVENT_QP_LAST_WQE_REACHED for a QP on an SRQ in ERR (rxe 6.1 raises none)"),

    /** RESET → ERR, legal for every QP (IBA 10.3.1, the kernel's qp_state_table). rxe refuses it with EINVAL. */
    RESET_TO_ERR("modify_qp RESET → ERR (rxe 6.1 refuses it, EINVAL)");

    private final String description;

    Feature(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
