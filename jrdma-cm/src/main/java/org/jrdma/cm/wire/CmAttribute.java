package org.jrdma.cm.wire;

/** The CM attribute IDs, i.e. the message types, of the MAD header's AttributeID (§7.5). */
public enum CmAttribute {
    CLASS_PORT_INFO(0x0001),
    REQ(0x0010),
    MRA(0x0011),
    REJ(0x0012),
    REP(0x0013),
    RTU(0x0014),
    DREQ(0x0015),
    DREP(0x0016),
    SIDR_REQ(0x0017),
    SIDR_REP(0x0018),
    LAP(0x0019),
    APR(0x001A);

    private final int id;

    CmAttribute(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /** The attribute with this ID, or null if the CM class defines none. */
    public static CmAttribute of(int id) {
        for (CmAttribute a : values()) {
            if (a.id == id) {
                return a;
            }
        }
        return null;
    }
}
