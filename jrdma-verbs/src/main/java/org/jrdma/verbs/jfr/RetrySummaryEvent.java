package org.jrdma.verbs.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * One QP's retries in the last period (or since its last summary, when it is destroyed):
 * deltas of its counters, only for a QP where one of them moved. Summarised because a lossy
 * link retransmits thousands of packets a second.
 */
@Name("org.jrdma.RetrySummary")
@Label("Retry Summary")
@Category({"jrdma", "Queue Pair"})
@Description("Per QP, what its retransmission and RNR counters did in the period (deltas; QPs with none are left out)")
@Period("1 s")
@StackTrace(false)
public final class RetrySummaryEvent extends Event {
    @Label("Device")
    public String device;

    @Label("QPN")
    public int qpn;

    @Label("Retransmitted Packets")
    public long retransmittedPackets;

    @Label("Retry Timeouts")
    @Description("Local ACK timeouts that led to a retransmission")
    public long retryTimeouts;

    @Label("Sequence NAKs Received")
    public long seqNaksRcvd;

    @Label("RNR NAKs Sent")
    @Description("Receiver not ready: a SEND found no posted receive here")
    public long rnrNaksSent;

    @Label("RNR NAKs Received")
    public long rnrNaksRcvd;

    @Label("Retry Exceeded")
    @Description("IBV_WC_RETRY_EXC_ERR completions")
    public long retryExceeded;

    @Label("RNR Retry Exceeded")
    @Description("IBV_WC_RNR_RETRY_EXC_ERR completions")
    public long rnrRetryExceeded;
}
