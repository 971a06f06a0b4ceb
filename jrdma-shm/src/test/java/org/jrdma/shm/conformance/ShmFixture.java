package org.jrdma.shm.conformance;

import org.jrdma.testkit.Feature;
import org.jrdma.testkit.ProviderFixture;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProviderChoice;

/**
 * The shm device for the conformance suites: both contexts are {@code shm0} of this process,
 * so the suites' two QPs talk through the node's shared control memory exactly as two
 * processes do (the cross-process path is {@code ShmProcessesTest}'s).
 */
final class ShmFixture implements ProviderFixture {
    @Override
    public Context openContext() {
        return new ProviderChoice(ProviderChoice.Mode.AUTO, null, java.util.List.of(new org.jrdma.shm.ShmProvider()))
                .choose().device("shm0").open();
    }

    @Override
    public boolean supports(Feature feature) {
        return switch (feature) {
            case SQD, SOLICITED, RANDOM_QPN, SEND_COMPLETION_BYTE_LEN, RDMA_WRITE, RDMA_READ, ATOMICS, INLINE, SRQ,
                    ASYNC_EVENTS, RETRY_CNT_7_FINITE, ZERO_LENGTH_RDMA_SKIPS_RKEY, SEND_TOO_LONG_IS_INVALID_REQUEST,
                    BAD_LKEY_IS_LOCAL_PROTECTION_ERROR, FLUSH_RECV_POSTED_IN_ERR, QUEUE_FULL_AT_GRANTED_CAP,
                    MISALIGNED_ATOMIC_POSTED, RESET_TO_ERR, QP_ERROR_EVENTS, LAST_WQE_REACHED -> true;
            // no UD/UC QPs and no memory windows (RC one host only); COMM_EST is not raised;
            // no GRH on RC, so no IPv4 checksum in it
            case UD, UC, MEMORY_WINDOW_TYPE_1, MEMORY_WINDOW_TYPE_2, COMM_EST, MW_RANGE_CHECKED, WC_WITH_INV_FLAG,
                    UD_LENGTH_CHECKED, GRH_IPV4_CHECKSUM -> false;
        };
    }
}
