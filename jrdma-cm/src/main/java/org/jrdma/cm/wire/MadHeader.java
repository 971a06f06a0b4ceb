package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * The 24-byte MAD common header (§7.5). Bytes 18–19 are reserved and not kept. Newer kernels put
 * the ECE options in {@code attributeModifier} of a REQ or REP, so it is carried as is.
 *
 * @param baseVersion the MAD base version, 8 bits ({@value Mad#BASE_VERSION})
 * @param mgmtClass the management class, 8 bits ({@value Mad#MGMT_CLASS_CM} for the CM)
 * @param classVersion the class version, 8 bits ({@value Mad#CLASS_VERSION_CM} for the CM)
 * @param method the method, 8 bits ({@value Mad#METHOD_SEND} for every CM message)
 * @param status the MAD status, 16 bits
 * @param classSpecific the class-specific field, 16 bits
 * @param transactionId the 64-bit transaction ID
 * @param attributeId the attribute ID, 16 bits ({@link CmAttribute})
 * @param attributeModifier the attribute modifier, 32 bits
 */
public record MadHeader(
        int baseVersion,
        int mgmtClass,
        int classVersion,
        int method,
        int status,
        int classSpecific,
        long transactionId,
        int attributeId,
        int attributeModifier) {

    /**
     * Checks every field against its width.
     *
     * @throws IllegalArgumentException naming a field that does not fit
     */
    public MadHeader {
        check("MadHeader.baseVersion", baseVersion, 8);
        check("MadHeader.mgmtClass", mgmtClass, 8);
        check("MadHeader.classVersion", classVersion, 8);
        check("MadHeader.method", method, 8);
        check("MadHeader.status", status, 16);
        check("MadHeader.classSpecific", classSpecific, 16);
        check("MadHeader.attributeId", attributeId, 16);
    }

    /**
     * The header of a CM message as Linux sends it: base version 1, class 7 version 2, SEND.
     *
     * @param tid the transaction ID
     * @param attributeId the message's attribute ID
     * @return the header
     */
    public static MadHeader cm(long tid, int attributeId) {
        return new MadHeader(Mad.BASE_VERSION, Mad.MGMT_CLASS_CM, Mad.CLASS_VERSION_CM, Mad.METHOD_SEND,
                0, 0, tid, attributeId, 0);
    }
}
