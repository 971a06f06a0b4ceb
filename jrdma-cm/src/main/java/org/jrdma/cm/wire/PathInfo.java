package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * A REQ's primary or alternate path (§7.6, REQ CM offsets 52–95 and 96–139). On RoCEv2 the GIDs
 * are the IP addresses as GIDs and the LIDs 0xFFFF (§7.8). An absent alternate path is all zero:
 * {@link #NONE}.
 */
public record PathInfo(
        int localLid,
        int remoteLid,
        byte[] localGid,
        byte[] remoteGid,
        int flowLabel,
        int packetRate,
        int trafficClass,
        int hopLimit,
        int sl,
        boolean subnetLocal,
        int localAckTimeout) {

    public static final PathInfo NONE = new PathInfo(0, 0, new byte[16], new byte[16], 0, 0, 0, 0, 0, false, 0);

    public PathInfo {
        check("PathInfo.localLid", localLid, 16);
        check("PathInfo.remoteLid", remoteLid, 16);
        localGid = Fields.gid("PathInfo.localGid", localGid);
        remoteGid = Fields.gid("PathInfo.remoteGid", remoteGid);
        check("PathInfo.flowLabel", flowLabel, 20);
        check("PathInfo.packetRate", packetRate, 6);
        check("PathInfo.trafficClass", trafficClass, 8);
        check("PathInfo.hopLimit", hopLimit, 8);
        check("PathInfo.sl", sl, 4);
        check("PathInfo.localAckTimeout", localAckTimeout, 5);
    }

    @Override
    public byte[] localGid() {
        return localGid.clone();
    }

    @Override
    public byte[] remoteGid() {
        return remoteGid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return Fields.equal(this, o);
    }

    @Override
    public int hashCode() {
        return Fields.hash(this);
    }

    @Override
    public String toString() {
        return Fields.describe(this);
    }
}
