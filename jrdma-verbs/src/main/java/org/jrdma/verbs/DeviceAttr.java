package org.jrdma.verbs;

/** {@code struct ibv_device_attr}: the limits a device advertises (and enforces). */
public record DeviceAttr(
        String fwVer,
        long nodeGuid,
        long sysImageGuid,
        long maxMrSize,
        int vendorId,
        int vendorPartId,
        int hwVer,
        int maxQp,
        int maxQpWr,
        int maxSge,
        int maxCq,
        int maxCqe,
        int maxMr,
        int maxPd,
        int maxQpRdAtom,
        int maxQpInitRdAtom,
        int maxInlineData,
        long maxMsgSize,
        int localCaAckDelay,
        int physPortCnt) {
}
