package org.jrdma.cm.wire;

import static org.jrdma.cm.wire.Fields.check;

/**
 * The 24-byte MAD common header (§7.5). Bytes 18–19 are reserved and not kept. Newer kernels put
 * the ECE options in {@code attributeModifier} of a REQ or REP, so it is carried as is.
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

    public MadHeader {
        check("MadHeader.baseVersion", baseVersion, 8);
        check("MadHeader.mgmtClass", mgmtClass, 8);
        check("MadHeader.classVersion", classVersion, 8);
        check("MadHeader.method", method, 8);
        check("MadHeader.status", status, 16);
        check("MadHeader.classSpecific", classSpecific, 16);
        check("MadHeader.attributeId", attributeId, 16);
    }

    /** The header of a CM message as Linux sends it: base version 1, class 7 version 2, SEND. */
    public static MadHeader cm(long tid, int attributeId) {
        return new MadHeader(Mad.BASE_VERSION, Mad.MGMT_CLASS_CM, Mad.CLASS_VERSION_CM, Mad.METHOD_SEND,
                0, 0, tid, attributeId, 0);
    }
}
