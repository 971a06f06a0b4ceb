package org.jrdma.cm.wire;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * The §7.6 tables, written out by hand as MAD offsets (CM offset + 24) and the bits each field owns
 * there: the oracle the codec is tested against. A value's bits go into the mask's set bits from
 * the lowest (last byte, bit 0) up, which is big-endian for whole bytes and also covers the fields
 * Linux splits (REP and SIDR_REP ECE vendor IDs).
 */
final class Layouts {
    /** A field: its component path, first MAD byte and the mask over the bytes from there. */
    record Loc(String field, int at, byte[] mask) {
        int width() {
            int n = 0;
            for (byte b : mask) {
                n += Integer.bitCount(b & 0xFF);
            }
            return n;
        }

        /** The bytes from {@code at} that {@code value} (Integer, Long, Boolean or byte[]) becomes. */
        byte[] deposit(Object value) {
            if (value instanceof byte[] bytes) {
                return Arrays.copyOf(bytes, mask.length);
            }
            long v = switch (value) {
                case Integer i -> Integer.toUnsignedLong(i);
                case Long l -> l;
                case Boolean b -> b ? 1 : 0;
                default -> throw new IllegalArgumentException(String.valueOf(value));
            };
            byte[] out = new byte[mask.length];
            for (int i = mask.length - 1; i >= 0; i--) {
                for (int bit = 0; bit < 8; bit++) {
                    if ((mask[i] >> bit & 1) != 0) {
                        out[i] |= (byte) ((v & 1) << bit);
                        v >>>= 1;
                    }
                }
            }
            return out;
        }

        @Override
        public String toString() {
            return field + "@" + at;
        }
    }

    record Layout(Class<? extends CmMessage> type, List<Loc> locs) {
        @Override
        public String toString() {
            return type.getSimpleName();
        }
    }

    private static Loc loc(String field, int at, String maskHex) {
        return new Loc(field, at, HexFormat.of().parseHex(maskHex));
    }

    private static Loc bytes(String field, int at, int length) {
        byte[] mask = new byte[length];
        Arrays.fill(mask, (byte) 0xFF);
        return new Loc(field, at, mask);
    }

    static final Layout REQ = new Layout(Req.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("eceVendorId", 29, "ffffff"),
            bytes("serviceId", 32, 8),
            bytes("localCaGuid", 40, 8),
            loc("localQkey", 52, "ffffffff"),
            loc("localQpn", 56, "ffffff"),
            loc("responderResources", 59, "ff"),
            loc("localEecn", 60, "ffffff"),
            loc("initiatorDepth", 63, "ff"),
            loc("remoteEecn", 64, "ffffff"),
            loc("remoteCmResponseTimeout", 67, "f8"),
            loc("transportServiceType", 67, "06"),
            loc("endToEndFlowControl", 67, "01"),
            loc("startingPsn", 68, "ffffff"),
            loc("localCmResponseTimeout", 71, "f8"),
            loc("retryCount", 71, "07"),
            loc("partitionKey", 72, "ffff"),
            loc("pathMtu", 74, "f0"),
            loc("rdcExists", 74, "08"),
            loc("rnrRetryCount", 74, "07"),
            loc("maxCmRetries", 75, "f0"),
            loc("srq", 75, "08"),
            loc("extendedTransportType", 75, "07"),
            loc("primaryPath.localLid", 76, "ffff"),
            loc("primaryPath.remoteLid", 78, "ffff"),
            bytes("primaryPath.localGid", 80, 16),
            bytes("primaryPath.remoteGid", 96, 16),
            loc("primaryPath.flowLabel", 112, "fffff0"),
            loc("primaryPath.packetRate", 115, "3f"),
            loc("primaryPath.trafficClass", 116, "ff"),
            loc("primaryPath.hopLimit", 117, "ff"),
            loc("primaryPath.sl", 118, "f0"),
            loc("primaryPath.subnetLocal", 118, "08"),
            loc("primaryPath.localAckTimeout", 119, "f8"),
            loc("alternatePath.localLid", 120, "ffff"),
            loc("alternatePath.remoteLid", 122, "ffff"),
            bytes("alternatePath.localGid", 124, 16),
            bytes("alternatePath.remoteGid", 140, 16),
            loc("alternatePath.flowLabel", 156, "fffff0"),
            loc("alternatePath.packetRate", 159, "3f"),
            loc("alternatePath.trafficClass", 160, "ff"),
            loc("alternatePath.hopLimit", 161, "ff"),
            loc("alternatePath.sl", 162, "f0"),
            loc("alternatePath.subnetLocal", 162, "08"),
            loc("alternatePath.localAckTimeout", 163, "f8"),
            loc("sapSupported", 163, "04"),
            bytes("privateData", 164, 92)));

    static final Layout REP = new Layout(Rep.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            loc("localQkey", 32, "ffffffff"),
            loc("localQpn", 36, "ffffff"),
            loc("eceVendorId", 39, "ff000000ff000000ff"),
            loc("localEecn", 40, "ffffff"),
            loc("startingPsn", 44, "ffffff"),
            loc("responderResources", 48, "ff"),
            loc("initiatorDepth", 49, "ff"),
            loc("targetAckDelay", 50, "f8"),
            loc("failoverAccepted", 50, "06"),
            loc("endToEndFlowControl", 50, "01"),
            loc("rnrRetryCount", 51, "e0"),
            loc("srq", 51, "10"),
            bytes("localCaGuid", 52, 8),
            bytes("privateData", 60, 196)));

    static final Layout RTU = new Layout(Rtu.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            bytes("privateData", 32, 224)));

    static final Layout REJ = new Layout(Rej.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            loc("messageRejected", 32, "c0"),
            loc("rejectInfoLength", 33, "fe"),
            loc("reason", 34, "ffff"),
            bytes("ari", 36, 72),
            bytes("privateData", 108, 148)));

    static final Layout MRA = new Layout(Mra.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            loc("messageMraed", 32, "c0"),
            loc("serviceTimeout", 33, "f8"),
            bytes("privateData", 34, 222)));

    static final Layout DREQ = new Layout(Dreq.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            loc("remoteQpnEecn", 32, "ffffff"),
            bytes("privateData", 36, 220)));

    static final Layout DREP = new Layout(Drep.class, List.of(
            loc("localCommId", 24, "ffffffff"),
            loc("remoteCommId", 28, "ffffffff"),
            bytes("privateData", 32, 224)));

    static final Layout SIDR_REQ = new Layout(SidrReq.class, List.of(
            loc("requestId", 24, "ffffffff"),
            loc("partitionKey", 28, "ffff"),
            bytes("serviceId", 32, 8),
            bytes("privateData", 40, 216)));

    static final Layout SIDR_REP = new Layout(SidrRep.class, List.of(
            loc("requestId", 24, "ffffffff"),
            loc("status", 28, "ff"),
            loc("additionalInfoLength", 29, "ff"),
            loc("eceVendorId", 30, "ffff000000ff"),
            loc("qpn", 32, "ffffff"),
            bytes("serviceId", 36, 8),
            loc("qkey", 44, "ffffffff"),
            bytes("additionalInfo", 48, 72),
            bytes("privateData", 120, 136)));

    static final List<Layout> ALL = List.of(REQ, REP, RTU, REJ, MRA, DREQ, DREP, SIDR_REQ, SIDR_REP);

    private Layouts() {
    }
}
