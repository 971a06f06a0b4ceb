package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;
import static org.jrdma.cm.wire.Wire.*;

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

    /** Writes the path whose first byte (Local Port LID) is at MAD offset {@code at}. */
    void write(byte[] m, int at) {
        put16(m, at, localLid);
        put16(m, at + 2, remoteLid);
        putBytes(m, at + 4, localGid);
        putBytes(m, at + 20, remoteGid);
        put32(m, at + 36, flowLabel << 12); // the upper 20 bits of the word
        putBits(m, at + 39, 0x3F, packetRate);
        put8(m, at + 40, trafficClass);
        put8(m, at + 41, hopLimit);
        putBits(m, at + 42, 0xF0, sl);
        putFlag(m, at + 42, 0x08, subnetLocal);
        putBits(m, at + 43, 0xF8, localAckTimeout);
    }

    static PathInfo read(byte[] m, int at) {
        return new PathInfo(u16(m, at), u16(m, at + 2), slice(m, at + 4, 16), slice(m, at + 20, 16),
                u32(m, at + 36) >>> 12, bits(m, at + 39, 0x3F), u8(m, at + 40), u8(m, at + 41),
                bits(m, at + 42, 0xF0), flag(m, at + 42, 0x08), bits(m, at + 43, 0xF8));
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
