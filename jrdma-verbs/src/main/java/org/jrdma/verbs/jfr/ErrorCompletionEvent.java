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
    @Label("Device")
    public String device;

    @Label("QPN")
    public int qpn;

    @Label("WR ID")
    public long wrId;

    @Label("Opcode")
    public String opcode;

    @Label("Status")
    public String status;

    @Label("Vendor Error")
    public int vendorErr;
}
