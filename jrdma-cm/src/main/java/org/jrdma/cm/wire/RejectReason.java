package org.jrdma.cm.wire;

/**
 * The reasons of a REJ (§7.10; IBTA vol. 1 table 109, as Linux's {@code enum ib_cm_rej_reason}).
 * A REJ keeps its reason as the raw 16-bit code ({@link Rej#reason()}): 34 and anything above 35
 * have no constant here but still travel.
 */
public enum RejectReason {
    /** 1: no QP available. */
    NO_QP(1),
    /** 2: no EE context available (RD). */
    NO_EEC(2),
    /** 3: no resources available. */
    NO_RESOURCES(3),
    /** 4: the CM timed out waiting for a reply. */
    TIMEOUT(4),
    /** 5: the request is not supported. */
    UNSUPPORTED(5),
    /** 6: the communication ID is not valid. */
    INVALID_COMM_ID(6),
    /** 7: the communication instance is not valid. */
    INVALID_COMM_INSTANCE(7),
    /** What a passive side answers when no listener matches the REQ's service ID (§7.9). */
    INVALID_SERVICE_ID(8),
    /** 9: the transport service type is not supported. */
    INVALID_TRANSPORT_TYPE(9),
    /** 10: the QPN is still in use by a stale connection (e.g. in timewait). */
    STALE_CONNECTION(10),
    /** 11: the reliable datagram channel does not exist. */
    RDC_NOT_EXIST(11),
    /** 12: the primary local or remote GID is not valid. */
    INVALID_GID(12),
    /** 13: the primary local or remote LID is not valid. */
    INVALID_LID(13),
    /** 14: the primary service level is not valid. */
    INVALID_SL(14),
    /** 15: the primary traffic class is not valid. */
    INVALID_TRAFFIC_CLASS(15),
    /** 16: the primary hop limit is not valid. */
    INVALID_HOP_LIMIT(16),
    /** 17: the primary packet rate is not valid. */
    INVALID_PACKET_RATE(17),
    /** 18: the alternate path's GID is not valid. */
    INVALID_ALT_GID(18),
    /** 19: the alternate path's LID is not valid. */
    INVALID_ALT_LID(19),
    /** 20: the alternate path's service level is not valid. */
    INVALID_ALT_SL(20),
    /** 21: the alternate path's traffic class is not valid. */
    INVALID_ALT_TRAFFIC_CLASS(21),
    /** 22: the alternate path's hop limit is not valid. */
    INVALID_ALT_HOP_LIMIT(22),
    /** 23: the alternate path's packet rate is not valid. */
    INVALID_ALT_PACKET_RATE(23),
    /** 24: the request is redirected to another CM port (in the ARI). */
    PORT_CM_REDIRECT(24),
    /** 25: the request is redirected to another port. */
    PORT_REDIRECT(25),
    /** 26: the path MTU is not supported. */
    INVALID_MTU(26),
    /** 27: not enough responder resources for the initiator depth asked for. */
    INSUFFICIENT_RESP_RESOURCES(27),
    /** rdma_reject: the user's own reason, with the user's private data (§7.9). */
    CONSUMER_DEFINED(28),
    /** 29: the RNR retry count is not valid. */
    INVALID_RNR_RETRY(29),
    /** 30: the local communication ID is already in use. */
    DUPLICATE_LOCAL_COMM_ID(30),
    /** 31: the MAD's class version is not supported. */
    INVALID_CLASS_VERSION(31),
    /** 32: the primary flow label is not valid. */
    INVALID_FLOW_LABEL(32),
    /** 33: the alternate path's flow label is not valid. */
    INVALID_ALT_FLOW_LABEL(33),
    /** Enhanced Connection Establishment: the peer does not support the vendor options asked for. */
    VENDOR_OPTION_NOT_SUPPORTED(35);

    private final int code;

    RejectReason(int code) {
        this.code = code;
    }

    /**
     * The reason's 16-bit code in a REJ.
     *
     * @return the code
     */
    public int code() {
        return code;
    }

    /**
     * The reason with this code.
     *
     * @param code a REJ's reason code
     * @return the reason, or null for a code not listed in §7.10
     */
    public static RejectReason of(int code) {
        for (RejectReason r : values()) {
            if (r.code == code) {
                return r;
            }
        }
        return null;
    }

    /**
     * The constant's name, or {@code UNKNOWN(code)}, for logs and error messages.
     *
     * @param code a REJ's reason code
     * @return the name
     */
    public static String name(int code) {
        RejectReason r = of(code);
        return r != null ? r.name() : "UNKNOWN(" + code + ")";
    }
}
