package org.jrdma.verbs;

/**
 * {@code struct ibv_wc}. Mutable: {@link CompletionQueue#poll} fills caller-owned instances so
 * that polling allocates nothing. For a status other than SUCCESS only wrId, status, qpNum and
 * vendorErr are valid (ibv_poll_cq.3).
 */
public final class WorkCompletion {
    /** wr_id: the id of the WR that completed. */
    public long wrId;
    /** status: how it completed. */
    public WcStatus status = WcStatus.SUCCESS;
    /** opcode: what completed (send side) or what consumed the receive WR. */
    public WcOpcode opcode = WcOpcode.SEND;
    /** vendor_err: the provider's own error code, for a status other than SUCCESS. */
    public int vendorErr;
    /** Bytes transferred (an unsigned 32-bit value). */
    public int byteLen;
    /** Immediate data in network byte order, valid when {@link WcFlags#WITH_IMM} is set. */
    public int immData;
    /** qp_num: the local QP the WR was posted to. */
    public int qpNum;
    /** src_qp: the sending QP's number (UD and GSI receives). */
    public int srcQp;
    /** {@link WcFlags} bits. */
    public int wcFlags;
    /** pkey_index: the P_Key index (GSI receives). */
    public int pkeyIndex;
    /** slid: the sender's LID (UD receives on InfiniBand; 0 on RoCE). */
    public int slid;
    /** sl: the service level the message came with (UD receives). */
    public int sl;
    /** dlid_path_bits: the destination LID's path bits (UD receives on InfiniBand). */
    public int dlidPathBits;

    /** An empty completion, for {@link CompletionQueue#poll} to fill. */
    public WorkCompletion() {
    }

    /** {@return whether {@link #status} is SUCCESS} */
    public boolean ok() {
        return status == WcStatus.SUCCESS;
    }

    /**
     * Copies every field of another completion into this one.
     *
     * @param o the completion to copy
     */
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

    /** Resets every field to its initial value (status SUCCESS, opcode SEND, the rest 0). */
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
