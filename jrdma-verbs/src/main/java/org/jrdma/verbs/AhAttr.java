package org.jrdma.verbs;

/**
 * {@code struct ibv_ah_attr} with its {@code ibv_global_route}. On RoCE the address vector
 * must carry a GRH ({@code isGlobal} with the peer's GID); the LID is 0.
 */
public final class AhAttr {
    public int dlid;
    public int sl;
    public int srcPathBits;
    public int staticRate;
    public boolean isGlobal;
    public int portNum = 1;
    /** GRH: the destination GID. */
    public Gid dgid = Gid.ZERO;
    public int flowLabel;
    public int sgidIndex;
    public int hopLimit = 64;
    public int trafficClass;

    /** A RoCE address vector: global, to {@code dgid}, from local GID {@code sgidIndex}. */
    public static AhAttr roce(Gid dgid, int sgidIndex, int portNum) {
        AhAttr ah = new AhAttr();
        ah.isGlobal = true;
        ah.dgid = dgid;
        ah.sgidIndex = sgidIndex;
        ah.portNum = portNum;
        return ah;
    }

    public AhAttr copy() {
        AhAttr c = new AhAttr();
        c.dlid = dlid;
        c.sl = sl;
        c.srcPathBits = srcPathBits;
        c.staticRate = staticRate;
        c.isGlobal = isGlobal;
        c.portNum = portNum;
        c.dgid = dgid;
        c.flowLabel = flowLabel;
        c.sgidIndex = sgidIndex;
        c.hopLimit = hopLimit;
        c.trafficClass = trafficClass;
        return c;
    }

    @Override
    public String toString() {
        return "AhAttr{dlid=" + dlid + ", global=" + isGlobal + ", dgid=" + dgid + ", sgidIndex=" + sgidIndex
                + ", hopLimit=" + hopLimit + ", port=" + portNum + "}";
    }
}
