package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** Packets a device dropped in the last period, one event per reason that moved. */
@Name("org.jrdma.Drops")
@Label("Dropped Packets")
@Category({"jrdma", "Device"})
@Description("Per device and drop reason, how many received packets were dropped in the period")
@Period("1 s")
@StackTrace(false)
public final class DropSummaryEvent extends Event {
    /** An empty event; its fields are filled before {@code commit()}. */
    public DropSummaryEvent() {
    }

    /** The device name (as {@code ibv_get_device_name}). */
    @Label("Device")
    public String device;

    /** Why the packets were dropped, in lower case (the drop reason behind the {@code drop_<reason>} counter). */
    @Label("Reason")
    public String reason;

    /** Packets dropped for this reason in the period (a counter delta). */
    @Label("Count")
    public long count;
}
