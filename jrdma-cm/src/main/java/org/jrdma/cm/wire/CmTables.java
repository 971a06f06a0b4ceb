package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.CmField.at;
import static org.jrdma.cm.wire.CmField.bits;
import static org.jrdma.cm.wire.CmField.bytes;
import static org.jrdma.cm.wire.CmField.flag;

import java.util.ArrayList;
import java.util.List;

/**
 * The CM messages as IBA vol 1 §12.6 lists them (tables 106–120 in the numbering Linux's
 * {@code ibta_vol1_c12.h} cites): one row per field, CM data offsets (MAD offset − 24), bits from
 * the most significant. Names are the record components, i.e. IBA's field names in camelCase.
 * What is not listed is reserved: sent as zero, ignored on receipt.
 *
 * <p>Two additions to IBA's tables are Linux's Enhanced Connection Establishment vendor IDs, which
 * newer kernels put in reserved bytes of REQ, REP and SIDR_REP (see {@link Req}, {@link Rep},
 * {@link SidrRep}); SAP Supported is IBA's own (REQ byte 139, beside the alternate ACK timeout).
 */
final class CmTables {
    /** A REQ's Primary and Alternate Path Information: 44 bytes, at REQ offsets 52 and 96. */
    static final List<CmField> PATH = List.of(
            at("localLid", 0, 16),
            at("remoteLid", 2, 16),
            bytes("localGid", 4, 16),
            bytes("remoteGid", 20, 16),
            at("flowLabel", 36, 20),
            bits("packetRate", 39, 2, 6),
            at("trafficClass", 40, 8),
            at("hopLimit", 41, 8),
            at("sl", 42, 4),
            flag("subnetLocal", 42, 4),
            at("localAckTimeout", 43, 5));

    static final CmLayout<Req> REQ = CmLayout.of(Req.class, concat(List.of(
            at("localCommId", 0, 32),
            at("eceVendorId", 5, 24),
            at("serviceId", 8, 64),
            at("localCaGuid", 16, 64),
            at("localQkey", 28, 32),
            at("localQpn", 32, 24),
            at("responderResources", 35, 8),
            at("localEecn", 36, 24),
            at("initiatorDepth", 39, 8),
            at("remoteEecn", 40, 24),
            at("remoteCmResponseTimeout", 43, 5),
            bits("transportServiceType", 43, 5, 2),
            flag("endToEndFlowControl", 43, 7),
            at("startingPsn", 44, 24),
            at("localCmResponseTimeout", 47, 5),
            bits("retryCount", 47, 5, 3),
            at("partitionKey", 48, 16),
            at("pathMtu", 50, 4),
            flag("rdcExists", 50, 4),
            bits("rnrRetryCount", 50, 5, 3),
            at("maxCmRetries", 51, 4),
            flag("srq", 51, 4),
            bits("extendedTransportType", 51, 5, 3)),
            path("primaryPath", 52),
            path("alternatePath", 96),
            List.of(
                    flag("sapSupported", 139, 5),
                    bytes("privateData", 140, Req.PRIVATE_DATA_SIZE))));

    static final CmLayout<Mra> MRA = CmLayout.of(Mra.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            at("messageMraed", 8, 2),
            at("serviceTimeout", 9, 5),
            bytes("privateData", 10, Mra.PRIVATE_DATA_SIZE)));

    static final CmLayout<Rej> REJ = CmLayout.of(Rej.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            at("messageRejected", 8, 2),
            at("rejectInfoLength", 9, 7),
            at("reason", 10, 16),
            bytes("ari", 12, Rej.ARI_SIZE),
            bytes("privateData", 84, Rej.PRIVATE_DATA_SIZE)));

    /** The vendor ID's three bytes sit in the reserved low byte of each 24-bit word (Linux's H, M, L). */
    static final CmLayout<Rep> REP = CmLayout.of(Rep.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            at("localQkey", 8, 32),
            at("localQpn", 12, 24),
            at("eceVendorId", 15, 8),
            at("localEecn", 16, 24),
            at("eceVendorId", 19, 8),
            at("startingPsn", 20, 24),
            at("eceVendorId", 23, 8),
            at("responderResources", 24, 8),
            at("initiatorDepth", 25, 8),
            at("targetAckDelay", 26, 5),
            bits("failoverAccepted", 26, 5, 2),
            flag("endToEndFlowControl", 26, 7),
            at("rnrRetryCount", 27, 3),
            flag("srq", 27, 3),
            at("localCaGuid", 28, 64),
            bytes("privateData", 36, Rep.PRIVATE_DATA_SIZE)));

    static final CmLayout<Rtu> RTU = CmLayout.of(Rtu.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            bytes("privateData", 8, Rtu.PRIVATE_DATA_SIZE)));

    static final CmLayout<Dreq> DREQ = CmLayout.of(Dreq.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            at("remoteQpnEecn", 8, 24),
            bytes("privateData", 12, Dreq.PRIVATE_DATA_SIZE)));

    /** The same rows as RTU's: IBA gives the two messages one shape. */
    static final CmLayout<Drep> DREP = CmLayout.of(Drep.class, List.of(
            at("localCommId", 0, 32),
            at("remoteCommId", 4, 32),
            bytes("privateData", 8, Drep.PRIVATE_DATA_SIZE)));

    static final CmLayout<SidrReq> SIDR_REQ = CmLayout.of(SidrReq.class, List.of(
            at("requestId", 0, 32),
            at("partitionKey", 4, 16),
            at("serviceId", 8, 64),
            bytes("privateData", 16, SidrReq.PRIVATE_DATA_SIZE)));

    /** The vendor ID's upper 16 bits fill the reserved bytes 6–7, its low 8 the byte after the QPN. */
    static final CmLayout<SidrRep> SIDR_REP = CmLayout.of(SidrRep.class, List.of(
            at("requestId", 0, 32),
            at("status", 4, 8),
            at("additionalInfoLength", 5, 8),
            at("eceVendorId", 6, 16),
            at("qpn", 8, 24),
            at("eceVendorId", 11, 8),
            at("serviceId", 12, 64),
            at("qkey", 20, 32),
            bytes("additionalInfo", 24, SidrRep.ADDITIONAL_INFO_SIZE),
            bytes("privateData", 96, SidrRep.PRIVATE_DATA_SIZE)));

    /** The MAD common header (IBA vol 1 §13.4), at MAD offset 0. Bytes 18–19 are reserved. */
    static final CmLayout<MadHeader> MAD_HEADER = CmLayout.of(MadHeader.class, List.of(
            at("baseVersion", 0, 8),
            at("mgmtClass", 1, 8),
            at("classVersion", 2, 8),
            at("method", 3, 8),
            at("status", 4, 16),
            at("classSpecific", 6, 16),
            at("transactionId", 8, 64),
            at("attributeId", 16, 16),
            at("attributeModifier", 20, 32)));

    /** Every message table, in attribute ID order. */
    static final List<CmLayout<? extends CmMessage>> MESSAGES =
            List.of(REQ, MRA, REJ, REP, RTU, DREQ, DREP, SIDR_REQ, SIDR_REP);

    private CmTables() {
    }

    /** The table of a message type; null for the CM attributes this codec does not support. */
    static CmLayout<? extends CmMessage> of(CmAttribute a) {
        return switch (a) {
            case REQ -> REQ;
            case MRA -> MRA;
            case REJ -> REJ;
            case REP -> REP;
            case RTU -> RTU;
            case DREQ -> DREQ;
            case DREP -> DREP;
            case SIDR_REQ -> SIDR_REQ;
            case SIDR_REP -> SIDR_REP;
            case CLASS_PORT_INFO, LAP, APR -> null;
        };
    }

    private static List<CmField> path(String name, int at) {
        return PATH.stream().map(f -> f.nestedIn(name, at)).toList();
    }

    @SafeVarargs
    private static List<CmField> concat(List<CmField>... parts) {
        List<CmField> all = new ArrayList<>();
        for (List<CmField> p : parts) {
            all.addAll(p);
        }
        return all;
    }
}
