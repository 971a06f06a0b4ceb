package org.jrdma.verbs;

/**
 * {@code struct ibv_ah_attr} with its {@code ibv_global_route}. On RoCE the address vector
 * must carry a GRH ({@code isGlobal} with the peer's GID); the LID is 0.
 */
public final class AhAttr {
    /** dlid: the destination LID (0 on RoCE). */
    public int dlid;
    /** sl: the service level, 0 to 15. */
    public int sl;
    /** src_path_bits: the source LID's path bits (InfiniBand LMC). */
    public int srcPathBits;
    /** static_rate: an {@code ibv_rate} value limiting the injection rate; 0 for the port's rate. */
    public int staticRate;
    /** is_global: packets carry a GRH ({@link #dgid} and the fields after it); required on RoCE. */
    public boolean isGlobal;
    /** port_num: the local port, from 1. */
    public int portNum = 1;
    /** GRH: the destination GID. */
    public Gid dgid = Gid.ZERO;
    /** GRH: the 20-bit flow label. */
    public int flowLabel;
    /** GRH: the index of the local (source) GID in the port's GID table. */
    public int sgidIndex;
    /** GRH: the hop limit (on RoCEv2, the IP TTL / hop limit), 64 by default. */
    public int hopLimit = 64;
    /** GRH: the traffic class (on RoCEv2, the IP DSCP and ECN bits). */
    public int trafficClass;

    /** A non-global address vector on port 1: LID, SL and rate 0, hop limit 64. */
    public AhAttr() {
    }

    /**
     * A RoCE address vector: global, to {@code dgid}, from local GID {@code sgidIndex}.
     *
     * @param dgid      the destination GID
     * @param sgidIndex the local GID table index to send from
     * @param portNum   the local port, from 1
     * @return a new address vector (the other fields at their defaults)
     */
    public static AhAttr roce(Gid dgid, int sgidIndex, int portNum) {
        AhAttr ah = new AhAttr();
        ah.isGlobal = true;
        ah.dgid = dgid;
        ah.sgidIndex = sgidIndex;
        ah.portNum = portNum;
        return ah;
    }

    /** {@return a new address vector with the same fields (the GID is immutable and shared)} */
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
