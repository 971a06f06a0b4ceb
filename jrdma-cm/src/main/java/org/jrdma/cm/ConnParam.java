package org.jrdma.cm;

import java.util.Arrays;

/**
 * {@code struct rdma_conn_param}, with librdmacm's meaning.
 *
 * <ul>
 *   <li>{@code responderResources} / {@code initiatorDepth}: {@value #DEVICE_MAX} means the
 *       device maximum on connect, and min(what the peer asked for, device max) on accept;
 *       any other value above the device maximum is refused (librdmacm ucma_valid_param).</li>
 *   <li>{@code retryCount} and {@code rnrRetryCount}: 0..7 (7 for RNR is "infinite");
 *       {@code retryCount} is ignored on accept (the connector's is used on both sides).</li>
 *   <li>{@code srq} and {@code qpNum}: only used when no QP is attached to the id.</li>
 *   <li>{@code privateData}: at most 56 bytes on an RC connect, 180 on a UD connect, 196 on an
 *       RC accept, 136 on a UD accept, 148 on a reject — refused before anything is sent.</li>
 * </ul>
 *
 * In an event the parameters are the peer's, swapped as rdma_cm reports them: the peer's
 * initiator depth shows as {@code responderResources} (what we must serve) and its responder
 * resources as {@code initiatorDepth}.
 */
public record ConnParam(byte[] privateData, int responderResources, int initiatorDepth, int retryCount,
        int rnrRetryCount, boolean flowControl, boolean srq, int qpNum) {
    /** RDMA_MAX_RESP_RES / RDMA_MAX_INIT_DEPTH: "as many as the device allows". */
    public static final int DEVICE_MAX = 0xFF;

    public ConnParam {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        check("responderResources", responderResources, 0, 255);
        check("initiatorDepth", initiatorDepth, 0, 255);
        check("retryCount", retryCount, 0, 7);
        check("rnrRetryCount", rnrRetryCount, 0, 7);
        check("qpNum", qpNum, 0, 0xFFFFFF);
    }

    /** librdmacm's NULL conn_param: device maxima, retry 7, RNR retry 7, no private data. */
    public static ConnParam defaults() {
        return new ConnParam(null, DEVICE_MAX, DEVICE_MAX, 7, 7, false, false, 0);
    }

    /** The defaults with this private data. */
    public static ConnParam withPrivateData(byte[] data) {
        return defaults().privateData(data);
    }

    public ConnParam privateData(byte[] data) {
        return new ConnParam(data, responderResources, initiatorDepth, retryCount, rnrRetryCount, flowControl, srq, qpNum);
    }

    public ConnParam resources(int responder, int initiator) {
        return new ConnParam(privateData, responder, initiator, retryCount, rnrRetryCount, flowControl, srq, qpNum);
    }

    public ConnParam retries(int retry, int rnrRetry) {
        return new ConnParam(privateData, responderResources, initiatorDepth, retry, rnrRetry, flowControl, srq, qpNum);
    }

    public ConnParam qpNum(int qpn) {
        return new ConnParam(privateData, responderResources, initiatorDepth, retryCount, rnrRetryCount, flowControl, srq, qpn);
    }

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
