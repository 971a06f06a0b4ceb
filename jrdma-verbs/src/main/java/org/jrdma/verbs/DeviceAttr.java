package org.jrdma.verbs;

/**
 * {@code struct ibv_device_attr}: the limits a device advertises (and enforces), as
 * ibv_query_device reports them.
 *
 * @param fwVer           fw_ver: the firmware version text
 * @param nodeGuid        node_guid, the 64-bit GUID read as a big-endian number
 * @param sysImageGuid    sys_image_guid, likewise
 * @param maxMrSize       max_mr_size: the largest memory region, in bytes
 * @param vendorId        vendor_id: the vendor's IEEE OUI (0 for soft)
 * @param vendorPartId    vendor_part_id
 * @param hwVer           hw_ver: the hardware revision
 * @param maxQp           max_qp: QPs the device holds
 * @param maxQpWr         max_qp_wr: WRs one work queue holds
 * @param maxSge          max_sge: SGEs one WR may carry
 * @param maxCq           max_cq: CQs the device holds
 * @param maxCqe          max_cqe: entries one CQ holds
 * @param maxMr           max_mr: memory regions the device holds
 * @param maxPd           max_pd: protection domains the device holds
 * @param maxQpRdAtom     max_qp_rd_atom: READs/atomics one QP serves at once (caps max_dest_rd_atomic)
 * @param maxQpInitRdAtom max_qp_init_rd_atom: READs/atomics one QP has in flight (caps max_rd_atomic)
 * @param maxInlineData   the largest inline send in bytes; not in ibv_device_attr (it is granted per
 *                        QP), so 0 when the provider only learns it at create_qp
 * @param maxMsgSize      the largest message in bytes (2^31 where the device does not say)
 * @param localCaAckDelay local_ca_ack_delay: the device's ACK delay, 4.096 µs × 2^n
 * @param physPortCnt     phys_port_cnt: physical ports, numbered from 1
 */
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
