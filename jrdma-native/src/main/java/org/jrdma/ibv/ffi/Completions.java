package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jrdma.ibv.ffi.IbvLayouts.IBV_WC;
import static org.jrdma.ibv.ffi.IbvLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;

/**
 * A CQ's preallocated array of {@code struct ibv_wc}: poll_cq (through the ops table) fills it and
 * each entry is copied into a caller's {@link WorkCompletion}. Nothing is allocated per poll.
 */
public final class Completions {
    /** Entries polled per ops.poll_cq call; a larger request loops. */
    public static final int BATCH = 32;
    private static final long WC = IBV_WC.byteSize();
    private static final long WR_ID = offset(IBV_WC, "wr_id");
    private static final long STATUS = offset(IBV_WC, "status");
    private static final long OPCODE = offset(IBV_WC, "opcode");
    private static final long VENDOR_ERR = offset(IBV_WC, "vendor_err");
    private static final long BYTE_LEN = offset(IBV_WC, "byte_len");
    private static final long IMM = offset(IBV_WC, "imm_data");
    private static final long QP_NUM = offset(IBV_WC, "qp_num");
    private static final long SRC_QP = offset(IBV_WC, "src_qp");
    private static final long WC_FLAGS = offset(IBV_WC, "wc_flags");
    private static final long PKEY_INDEX = offset(IBV_WC, "pkey_index");
    private static final long SLID = offset(IBV_WC, "slid");
    private static final long SL = offset(IBV_WC, "sl");
    private static final long DLID_PATH_BITS = offset(IBV_WC, "dlid_path_bits");
    private static final WcOpcode[] OPCODES = new WcOpcode[256];

    static {
        for (WcOpcode op : WcOpcode.values()) {
            OPCODES[op.value()] = op;
        }
    }

    private final MemorySegment wcs;

    public Completions(Arena arena) {
        this.wcs = arena.allocate(WC * BATCH, 8);
    }

    /** ops.poll_cq for up to {@code n} ≤ {@link #BATCH} entries; returns the count, or a negative value on error. */
    public int poll(MemorySegment fn, MemorySegment cq, int n) {
        try {
            return (int) Ops.POLL_CQ$mh.invokeExact(fn, cq, n, wcs);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Copies entry {@code i} of the last poll into {@code out}. */
    public void copy(int i, WorkCompletion out) {
        long b = i * WC;
        out.wrId = wcs.get(JAVA_LONG, b + WR_ID);
        out.status = WcStatus.fromValue(wcs.get(JAVA_INT, b + STATUS));
        int op = wcs.get(JAVA_INT, b + OPCODE);
        WcOpcode opcode = op >= 0 && op < OPCODES.length ? OPCODES[op] : null;
        out.opcode = opcode == null ? WcOpcode.SEND : opcode;
        out.vendorErr = wcs.get(JAVA_INT, b + VENDOR_ERR);
        out.byteLen = wcs.get(JAVA_INT, b + BYTE_LEN);
        out.wcFlags = wcs.get(JAVA_INT, b + WC_FLAGS);
        // imm_data is __be32 (the API keeps the four bytes in network order); with WITH_INV the
        // same slot is invalidated_rkey, a host-order key
        out.immData = (out.wcFlags & WcFlags.WITH_INV) != 0 ? wcs.get(JAVA_INT, b + IMM)
                : wcs.get(WorkRequests.BE_INT, b + IMM);
        out.qpNum = wcs.get(JAVA_INT, b + QP_NUM);
        out.srcQp = wcs.get(JAVA_INT, b + SRC_QP);
        out.pkeyIndex = Short.toUnsignedInt(wcs.get(JAVA_SHORT, b + PKEY_INDEX));
        out.slid = Short.toUnsignedInt(wcs.get(JAVA_SHORT, b + SLID));
        out.sl = Byte.toUnsignedInt(wcs.get(JAVA_BYTE, b + SL));
        out.dlidPathBits = Byte.toUnsignedInt(wcs.get(JAVA_BYTE, b + DLID_PATH_BITS));
    }

    /** ops.req_notify_cq; returns its errno. */
    public static int reqNotify(MemorySegment fn, MemorySegment cq, boolean solicitedOnly) {
        try {
            return (int) Ops.REQ_NOTIFY_CQ$mh.invokeExact(fn, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
