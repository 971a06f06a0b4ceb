package org.jrdma.cm;

import java.util.Arrays;

/**
 * In an event the parameters are the peer's, swapped as rdma_cm reports them: the peer's
 * initiator depth shows as {@code responderResources} (what we must serve) and its responder
 * resources as {@code initiatorDepth}.
 *
 * @param privateData the private data to send (null: none); copied
 * @param responderResources RDMA reads and atomics this side serves at once
 *     ({@code responder_resources}), 0..255
 * @param initiatorDepth RDMA reads and atomics this side has outstanding at once
 *     ({@code initiator_depth}), 0..255
 * @param retryCount transport retries, 0..7 ({@code retry_count})
 * @param rnrRetryCount RNR retries, 0..7, 7 meaning infinite ({@code rnr_retry_count})
 * @param flowControl whether the peer may rely on end-to-end flow control ({@code flow_control})
 * @param srq whether the QP uses an SRQ, when no QP is attached ({@code srq})
 * @param qpNum the QPN to advertise when no QP is attached, 24 bits ({@code qp_num})
 */
public record ConnParam(byte[] privateData, int responderResources, int initiatorDepth, int retryCount,
        int rnrRetryCount, boolean flowControl, boolean srq, int qpNum) {
    /** RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH: "as many as the device allows". */
    public static final int DEVICE_MAX = 0xFF;

    /**
     * Checks the ranges and copies the private data.
     *
     * @throws IllegalArgumentException if a field is outside its range
     */
    public ConnParam {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        check("responderResources", responderResources, 0, 255);
        check("initiatorDepth", initiatorDepth, 0, 255);
        check("retryCount", retryCount, 0, 7);
        check("rnrRetryCount", rnrRetryCount, 0, 7);
        check("qpNum", qpNum, 0, 0xFFFFFF);
    }

    /**
     * librdmacm's NULL conn_param: device maxima, retry 7, RNR retry 7, no private data.
     *
     * @return the defaults
     */
    public static ConnParam defaults() {
        return new ConnParam(null, DEVICE_MAX, DEVICE_MAX, 7, 7, false, false, 0);
    }

    /**
     * The defaults with this private data.
     *
     * @param data the private data; copied
     * @return the parameters
     */
    public static ConnParam withPrivateData(byte[] data) {
        return defaults().privateData(data);
    }

    /**
     * A copy with other private data.
     *
     * @param data the private data (null: none); copied
     * @return the copy
     */
    public ConnParam privateData(byte[] data) {
        return new ConnParam(data, responderResources, initiatorDepth, retryCount, rnrRetryCount, flowControl, srq, qpNum);
    }

    /**
     * A copy with other read/atomic limits.
     *
     * @param responder responder resources, 0..255 ({@value #DEVICE_MAX}: the device maximum)
     * @param initiator initiator depth, 0..255 ({@value #DEVICE_MAX}: the device maximum)
     * @return the copy
     */
    public ConnParam resources(int responder, int initiator) {
        return new ConnParam(privateData, responder, initiator, retryCount, rnrRetryCount, flowControl, srq, qpNum);
    }

    /**
     * A copy with other retry counts.
     *
     * @param retry transport retries, 0..7
     * @param rnrRetry RNR retries, 0..7 (7: infinite)
     * @return the copy
     */
    public ConnParam retries(int retry, int rnrRetry) {
        return new ConnParam(privateData, responderResources, initiatorDepth, retry, rnrRetry, flowControl, srq, qpNum);
    }

    /**
     * A copy advertising another QPN (used only when no QP is attached to the id).
     *
     * @param qpn the QP number, 24 bits
     * @return the copy
     */
    public ConnParam qpNum(int qpn) {
        return new ConnParam(privateData, responderResources, initiatorDepth, retryCount, rnrRetryCount, flowControl, srq, qpn);
    }

    /**
     * The private data.
     *
     * @return a copy, empty when there is none
     */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    int privateDataLength() {
        return privateData.length;
    }

    private static void check(String name, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException("ConnParam." + name + " = " + v + " is outside " + min + ".." + max);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConnParam p && Arrays.equals(privateData, p.privateData) && responderResources == p.responderResources
                && initiatorDepth == p.initiatorDepth && retryCount == p.retryCount && rnrRetryCount == p.rnrRetryCount
                && flowControl == p.flowControl && srq == p.srq && qpNum == p.qpNum;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(privateData) * 31 + java.util.Objects.hash(responderResources, initiatorDepth, retryCount,
                rnrRetryCount, flowControl, srq, qpNum);
    }

    @Override
    public String toString() {
        return "ConnParam[privateData=" + privateData.length + " B, responderResources=" + responderResources
                + ", initiatorDepth=" + initiatorDepth + ", retryCount=" + retryCount + ", rnrRetryCount=" + rnrRetryCount
                + ", flowControl=" + flowControl + ", srq=" + srq + ", qpNum=0x" + Integer.toHexString(qpNum) + "]";
    }
}
