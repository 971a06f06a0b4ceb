package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;
import static org.jrdma.cm.wire.Wire.*;

/**
 * REP, ConnectReply (§7.6). Newer kernels spread a 24-bit ECE vendor ID over the reserved low bytes
 * of the three 24-bit words: bits 23–16 in byte 15, 15–8 in byte 19, 7–0 in byte 23 (CM offsets);
 * {@code eceVendorId} is listed at its first byte. {@code startingPsn} is the PSN the replier
 * expects to receive (§7.8). The private data is all the user's: rdma_cm prepends nothing.
 */
public record Rep(
        int localCommId,
        int remoteCommId,
        int localQkey,
        int localQpn,
        int eceVendorId,
        int localEecn,
        int startingPsn,
        int responderResources,
        int initiatorDepth,
        int targetAckDelay,
        int failoverAccepted,
        boolean endToEndFlowControl,
        int rnrRetryCount,
        boolean srq,
        long localCaGuid,
        byte[] privateData) implements CmMessage {

    public static final int PRIVATE_DATA_SIZE = 196;

    public Rep {
        check("Rep.localQpn", localQpn, 24);
        check("Rep.eceVendorId", eceVendorId, 24);
        check("Rep.localEecn", localEecn, 24);
        check("Rep.startingPsn", startingPsn, 24);
        check("Rep.responderResources", responderResources, 8);
        check("Rep.initiatorDepth", initiatorDepth, 8);
        check("Rep.targetAckDelay", targetAckDelay, 5);
        check("Rep.failoverAccepted", failoverAccepted, 2);
        check("Rep.rnrRetryCount", rnrRetryCount, 3);
        privateData = Fields.padded("REP", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REP;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    void write(byte[] m) {
        put32(m, D, localCommId);
        put32(m, D + 4, remoteCommId);
        put32(m, D + 8, localQkey);
        put24(m, D + 12, localQpn);
        put8(m, D + 15, eceVendorId >>> 16);
        put24(m, D + 16, localEecn);
        put8(m, D + 19, eceVendorId >>> 8);
        put24(m, D + 20, startingPsn);
        put8(m, D + 23, eceVendorId);
        put8(m, D + 24, responderResources);
        put8(m, D + 25, initiatorDepth);
        putBits(m, D + 26, 0xF8, targetAckDelay);
        putBits(m, D + 26, 0x06, failoverAccepted);
        putFlag(m, D + 26, 0x01, endToEndFlowControl);
        putBits(m, D + 27, 0xE0, rnrRetryCount);
        putFlag(m, D + 27, 0x10, srq);
        put64(m, D + 28, localCaGuid);
        putBytes(m, D + 36, privateData);
    }

    static Rep read(byte[] m) {
        int vendor = u8(m, D + 15) << 16 | u8(m, D + 19) << 8 | u8(m, D + 23);
        return new Rep(u32(m, D), u32(m, D + 4), u32(m, D + 8), u24(m, D + 12), vendor, u24(m, D + 16),
                u24(m, D + 20), u8(m, D + 24), u8(m, D + 25), bits(m, D + 26, 0xF8), bits(m, D + 26, 0x06),
                flag(m, D + 26, 0x01), bits(m, D + 27, 0xE0), flag(m, D + 27, 0x10), u64(m, D + 28),
                slice(m, D + 36, PRIVATE_DATA_SIZE));
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
