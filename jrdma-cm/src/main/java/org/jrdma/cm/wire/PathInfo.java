package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * A REQ's primary or alternate path (§7.6, REQ CM offsets 52–95 and 96–139). On RoCEv2 the GIDs
 * are the IP addresses as GIDs and the LIDs 0xFFFF (§7.8). An absent alternate path is all zero:
 * {@link #NONE}.
 *
 * @param localLid the local port's LID, 16 bits (0xFFFF on RoCE)
 * @param remoteLid the remote port's LID, 16 bits (0xFFFF on RoCE)
 * @param localGid the local GID, 16 bytes
 * @param remoteGid the remote GID, 16 bytes
 * @param flowLabel the GRH flow label, 20 bits
 * @param packetRate the static rate in IB encoding, 6 bits
 * @param trafficClass the GRH traffic class, 8 bits
 * @param hopLimit the GRH hop limit, 8 bits
 * @param sl the service level, 4 bits
 * @param subnetLocal whether the path stays in the subnet (no GRH needed)
 * @param localAckTimeout the QP's local ACK timeout: 4.096 µs × 2^n, 5 bits
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

    /** The all-zero path: no alternate path. */
    public static final PathInfo NONE = new PathInfo(0, 0, new byte[16], new byte[16], 0, 0, 0, 0, 0, false, 0);

    /**
     * Checks every field against its width and copies the GIDs.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or a GID not 16 bytes
     */
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

    /**
     * The local GID.
     *
     * @return a copy of its 16 bytes
     */
    @Override
    public byte[] localGid() {
        return localGid.clone();
    }

    /**
     * The remote GID.
     *
     * @return a copy of its 16 bytes
     */
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
