package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;
import static org.jrdma.cm.wire.Wire.*;

import java.util.Objects;

/**
 * REQ, ConnectRequest (§7.6). {@code eceVendorId} is the 24-bit ECE vendor ID that newer kernels put
 * in the reserved bytes 5–7; {@code startingPsn} is, in Linux's reading, the PSN the sender expects
 * to receive (§7.8). The private data of an rdma_cm REQ starts with a {@link CmaHeader}.
 */
public record Req(
        int localCommId,
        int eceVendorId,
        long serviceId,
        long localCaGuid,
        int localQkey,
        int localQpn,
        int responderResources,
        int localEecn,
        int initiatorDepth,
        int remoteEecn,
        int remoteCmResponseTimeout,
        int transportServiceType,
        boolean endToEndFlowControl,
        int startingPsn,
        int localCmResponseTimeout,
        int retryCount,
        int partitionKey,
        int pathMtu,
        boolean rdcExists,
        int rnrRetryCount,
        int maxCmRetries,
        boolean srq,
        int extendedTransportType,
        PathInfo primaryPath,
        PathInfo alternatePath,
        boolean sapSupported,
        byte[] privateData) implements CmMessage {

    public static final int PRIVATE_DATA_SIZE = 92;
    private static final int PRIMARY_PATH = D + 52, ALTERNATE_PATH = D + 96, PRIVATE_DATA = D + 140;

    public Req {
        check("Req.eceVendorId", eceVendorId, 24);
        check("Req.localQpn", localQpn, 24);
        check("Req.responderResources", responderResources, 8);
        check("Req.localEecn", localEecn, 24);
        check("Req.initiatorDepth", initiatorDepth, 8);
        check("Req.remoteEecn", remoteEecn, 24);
        check("Req.remoteCmResponseTimeout", remoteCmResponseTimeout, 5);
        check("Req.transportServiceType", transportServiceType, 2);
        check("Req.startingPsn", startingPsn, 24);
        check("Req.localCmResponseTimeout", localCmResponseTimeout, 5);
        check("Req.retryCount", retryCount, 3);
        check("Req.partitionKey", partitionKey, 16);
        check("Req.pathMtu", pathMtu, 4);
        check("Req.rnrRetryCount", rnrRetryCount, 3);
        check("Req.maxCmRetries", maxCmRetries, 4);
        check("Req.extendedTransportType", extendedTransportType, 3);
        Objects.requireNonNull(primaryPath, "Req.primaryPath");
        Objects.requireNonNull(alternatePath, "Req.alternatePath (PathInfo.NONE when there is none)");
        privateData = Fields.padded("REQ", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REQ;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    void write(byte[] m) {
        put32(m, D, localCommId);
        put24(m, D + 5, eceVendorId);
        put64(m, D + 8, serviceId);
        put64(m, D + 16, localCaGuid);
        put32(m, D + 28, localQkey);
        put24(m, D + 32, localQpn);
        put8(m, D + 35, responderResources);
        put24(m, D + 36, localEecn);
        put8(m, D + 39, initiatorDepth);
        put24(m, D + 40, remoteEecn);
        putBits(m, D + 43, 0xF8, remoteCmResponseTimeout);
        putBits(m, D + 43, 0x06, transportServiceType);
        putFlag(m, D + 43, 0x01, endToEndFlowControl);
        put24(m, D + 44, startingPsn);
        putBits(m, D + 47, 0xF8, localCmResponseTimeout);
        putBits(m, D + 47, 0x07, retryCount);
        put16(m, D + 48, partitionKey);
        putBits(m, D + 50, 0xF0, pathMtu);
        putFlag(m, D + 50, 0x08, rdcExists);
        putBits(m, D + 50, 0x07, rnrRetryCount);
        putBits(m, D + 51, 0xF0, maxCmRetries);
        putFlag(m, D + 51, 0x08, srq);
        putBits(m, D + 51, 0x07, extendedTransportType);
        primaryPath.write(m, PRIMARY_PATH);
        alternatePath.write(m, ALTERNATE_PATH);
        putFlag(m, D + 139, 0x04, sapSupported); // shares a byte with the alternate ACK timeout
        putBytes(m, PRIVATE_DATA, privateData);
    }

    static Req read(byte[] m) {
        return new Req(u32(m, D), u24(m, D + 5), u64(m, D + 8), u64(m, D + 16), u32(m, D + 28),
                u24(m, D + 32), u8(m, D + 35), u24(m, D + 36), u8(m, D + 39), u24(m, D + 40),
                bits(m, D + 43, 0xF8), bits(m, D + 43, 0x06), flag(m, D + 43, 0x01),
                u24(m, D + 44), bits(m, D + 47, 0xF8), bits(m, D + 47, 0x07),
                u16(m, D + 48), bits(m, D + 50, 0xF0), flag(m, D + 50, 0x08), bits(m, D + 50, 0x07),
                bits(m, D + 51, 0xF0), flag(m, D + 51, 0x08), bits(m, D + 51, 0x07),
                PathInfo.read(m, PRIMARY_PATH), PathInfo.read(m, ALTERNATE_PATH), flag(m, D + 139, 0x04),
                slice(m, PRIVATE_DATA, PRIVATE_DATA_SIZE));
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
