package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

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
