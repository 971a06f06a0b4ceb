package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * SIDR_REP (§7.6). Newer kernels put an ECE vendor ID in reserved bytes: bits 23–8 in the 16 bits
 * at CM offset 6, bits 7–0 in byte 11 (Linux itself only fills bits 15–0 there). {@code status} is
 * 0 for success; {@code additionalInfo} is 72 bytes, of which {@code additionalInfoLength} count.
 *
 * @param requestId the ID of the SIDR_REQ answered
 * @param status 0 for success, else why not, 8 bits
 * @param additionalInfoLength how many additional-info bytes count, 8 bits
 * @param eceVendorId the ECE vendor ID, 24 bits (0: none)
 * @param qpn the resolved UD QPN, 24 bits
 * @param serviceId the service ID resolved
 * @param qkey the UD QP's Q_Key
 * @param additionalInfo the additional information, {@value #ADDITIONAL_INFO_SIZE} bytes
 * @param privateData the private data, {@value #PRIVATE_DATA_SIZE} bytes
 */
public record SidrRep(
        int requestId,
        int status,
        int additionalInfoLength,
        int eceVendorId,
        int qpn,
        long serviceId,
        int qkey,
        byte[] additionalInfo,
        byte[] privateData) implements CmMessage {

    /** The additional-information area: 72 bytes. */
    public static final int ADDITIONAL_INFO_SIZE = 72;
    /** The SIDR_REP's private data area: 136 bytes. */
    public static final int PRIVATE_DATA_SIZE = 136;

    /**
     * Checks every field against its width and pads the private data with zeros.
     *
     * @throws IllegalArgumentException naming a field that does not fit, or private data too long
     */
    public SidrRep {
        check("SidrRep.status", status, 8);
        check("SidrRep.additionalInfoLength", additionalInfoLength, 8);
        check("SidrRep.eceVendorId", eceVendorId, 24);
        check("SidrRep.qpn", qpn, 24);
        additionalInfo = Fields.padded("SIDR_REP", "additional info", additionalInfo, ADDITIONAL_INFO_SIZE);
        privateData = Fields.padded("SIDR_REP", "private data", privateData, PRIVATE_DATA_SIZE);
    }

    @Override
    public CmAttribute attribute() {
        return CmAttribute.SIDR_REP;
    }

    /**
     * The additional information.
     *
     * @return a copy of its {@value #ADDITIONAL_INFO_SIZE} bytes
     */
    @Override
    public byte[] additionalInfo() {
        return additionalInfo.clone();
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
