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
    @Label("Device")
    public String device;

    @Label("Reason")
    public String reason;

    @Label("Count")
    public long count;
}
