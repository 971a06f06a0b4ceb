package org.jrdma.soft.conformance;

import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.FreshDevices;
import org.jrdma.testkit.Feature;
import org.jrdma.testkit.ProviderFixture;
import org.jrdma.verbs.Context;

/**
 * The soft provider under the testkit: a device of its own on a free 127.77.x.y address, a
 * fresh context per test (both QPs of a loopback on the same device, as with rxe on one
 * netdev), the engine on its own thread.
 */
final class SoftFixture implements ProviderFixture {
    private static SoftDevice device;

    static synchronized SoftDevice device() {
        if (device == null) {
            device = FreshDevices.fresh("conf");
        }
        return device;
    }

    @Override
    public Context openContext() {
        return device().open();
    }

    @Override
    public boolean supports(Feature feature) {
        return switch (feature) {
            case SQD, SOLICITED, RANDOM_QPN, SEND_COMPLETION_BYTE_LEN, RDMA_WRITE, RDMA_READ, ATOMICS, INLINE, UD, UC,
                    SRQ, MEMORY_WINDOW_TYPE_1, MEMORY_WINDOW_TYPE_2, ASYNC_EVENTS, COMM_EST, RETRY_CNT_7_FINITE,
                    ZERO_LENGTH_RDMA_SKIPS_RKEY, SEND_TOO_LONG_IS_INVALID_REQUEST, BAD_LKEY_IS_LOCAL_PROTECTION_ERROR,
                    FLUSH_RECV_POSTED_IN_ERR, QUEUE_FULL_AT_GRANTED_CAP, MW_RANGE_CHECKED, WC_WITH_INV_FLAG,
                    MISALIGNED_ATOMIC_POSTED, UD_LENGTH_CHECKED, GRH_IPV4_CHECKSUM, RESET_TO_ERR, QP_ERROR_EVENTS,
                    LAST_WQE_REACHED -> true;
        };
    }
}
