package org.jrdma.verbs;

/**
 * {@code struct ibv_wc}. Mutable: {@link CompletionQueue#poll} fills caller-owned instances so
 * that polling allocates nothing. For a status other than SUCCESS only wrId, status, qpNum and
 * vendorErr are valid (ibv_poll_cq.3).
 */
public final class WorkCompletion {
    public long wrId;
    public WcStatus status = WcStatus.SUCCESS;
    public WcOpcode opcode = WcOpcode.SEND;
    public int vendorErr;
    /** Bytes transferred (an unsigned 32-bit value). */
    public int byteLen;
    /** Immediate data in network byte order, valid when {@link WcFlags#WITH_IMM} is set. */
    public int immData;
    public int qpNum;
    public int srcQp;
    /** {@link WcFlags} bits. */
    public int wcFlags;
    public int pkeyIndex;
    public int slid;
    public int sl;
    public int dlidPathBits;

    public boolean ok() {
        return status == WcStatus.SUCCESS;
    }

    public void copyFrom(WorkCompletion o) {
        wrId = o.wrId;
        status = o.status;
        opcode = o.opcode;
        vendorErr = o.vendorErr;
        byteLen = o.byteLen;
        immData = o.immData;
        qpNum = o.qpNum;
        srcQp = o.srcQp;
        wcFlags = o.wcFlags;
        pkeyIndex = o.pkeyIndex;
        slid = o.slid;
        sl = o.sl;
        dlidPathBits = o.dlidPathBits;
    }

    public void clear() {
        wrId = 0;
        status = WcStatus.SUCCESS;
        opcode = WcOpcode.SEND;
        vendorErr = 0;
        byteLen = 0;
        immData = 0;
        qpNum = 0;
        srcQp = 0;
        wcFlags = 0;
        pkeyIndex = 0;
        slid = 0;
        sl = 0;
        dlidPathBits = 0;
    }

    @Override
    public String toString() {
        return "WorkCompletion{wrId=" + wrId + ", status=" + status + " (" + status.str() + "), opcode=" + opcode
                + ", byteLen=" + Integer.toUnsignedString(byteLen) + ", immData=0x" + Integer.toHexString(immData)
                + ", qpNum=0x" + Integer.toHexString(qpNum) + ", srcQp=0x" + Integer.toHexString(srcQp)
                + ", wcFlags=" + wcFlags + "}";
    }
}
