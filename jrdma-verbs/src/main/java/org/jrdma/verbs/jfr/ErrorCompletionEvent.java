package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A work completion whose status is not IBV_WC_SUCCESS, as the provider wrote it into the CQ. */
@Name("org.jrdma.ErrorCompletion")
@Label("Error Completion")
@Category({"jrdma", "Completion"})
@Description("A work completion with a status other than SUCCESS (ibv_wc.status, vendor_err)")
@StackTrace(false)
public final class ErrorCompletionEvent extends Event {
    /** An empty event; its fields are filled before {@code commit()}. */
    public ErrorCompletionEvent() {
    }

    /** The device name (as {@code ibv_get_device_name}). */
    @Label("Device")
    public String device;

    /** The QP number the completion belongs to ({@code ibv_wc.qp_num}). */
    @Label("QPN")
    public int qpn;

    /** The work request's ID ({@code ibv_wc.wr_id}). */
    @Label("WR ID")
    public long wrId;

    /** The completion opcode, e.g. {@code SEND} or {@code RDMA_WRITE} ({@code ibv_wc.opcode}). */
    @Label("Opcode")
    public String opcode;

    /** The status, e.g. {@code RETRY_EXC_ERR} ({@code ibv_wc.status} without {@code IBV_WC_}). */
    @Label("Status")
    public String status;

    /** The provider's own error code ({@code ibv_wc.vendor_err}); 0 when it sets none. */
    @Label("Vendor Error")
    public int vendorErr;
}
