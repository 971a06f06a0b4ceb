package org.jrdma.cm.wire;

/** The CM attribute IDs, i.e. the message types, of the MAD header's AttributeID (§7.5). */
public enum CmAttribute {
    /** 0x0001: ClassPortInfo. */
    CLASS_PORT_INFO(0x0001),
    /** 0x0010: ConnectRequest. */
    REQ(0x0010),
    /** 0x0011: MsgRcptAck. */
    MRA(0x0011),
    /** 0x0012: ConnectReject. */
    REJ(0x0012),
    /** 0x0013: ConnectReply. */
    REP(0x0013),
    /** 0x0014: ReadyToUse. */
    RTU(0x0014),
    /** 0x0015: DisconnectRequest. */
    DREQ(0x0015),
    /** 0x0016: DisconnectReply. */
    DREP(0x0016),
    /** 0x0017: ServiceIDResolutionRequest. */
    SIDR_REQ(0x0017),
    /** 0x0018: ServiceIDResolutionResponse. */
    SIDR_REP(0x0018),
    /** 0x0019: LoadAlternatePath. */
    LAP(0x0019),
    /** 0x001A: AlternatePathResponse. */
    APR(0x001A);

    private final int id;

    CmAttribute(int id) {
        this.id = id;
    }

    /**
     * The attribute ID in the MAD header.
     *
     * @return the 16-bit ID
     */
    public int id() {
        return id;
    }

    /**
     * The attribute with this ID.
     *
     * @param id a MAD header's attribute ID
     * @return the attribute, or null if the CM class defines none
     */
    public static CmAttribute of(int id) {
        for (CmAttribute a : values()) {
            if (a.id == id) {
                return a;
            }
        }
        return null;
    }
}
