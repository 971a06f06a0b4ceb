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
    /** An empty event; its fields are filled before {@code commit()}. */
    public RetrySummaryEvent() {
    }

    /** The device name (as {@code ibv_get_device_name}). */
    @Label("Device")
    public String device;

    /** The QP number. */
    @Label("QPN")
    public int qpn;

    /** Packets sent again, after a timeout or a sequence NAK. */
    @Label("Retransmitted Packets")
    public long retransmittedPackets;

    /** Local ACK timeouts that led to a retransmission (the QP's {@code timeout} attribute expiring). */
    @Label("Retry Timeouts")
    @Description("Local ACK timeouts that led to a retransmission")
    public long retryTimeouts;

    /** PSN sequence error NAKs received from the responder, each one a go-back-N. */
    @Label("Sequence NAKs Received")
    public long seqNaksRcvd;

    /** RNR NAKs this QP sent as responder: a SEND found no posted receive here. */
    @Label("RNR NAKs Sent")
    @Description("Receiver not ready: a SEND found no posted receive here")
    public long rnrNaksSent;

    /** RNR NAKs this QP received as requester: the peer had no receive posted. */
    @Label("RNR NAKs Received")
    public long rnrNaksRcvd;

    /** Send WRs that failed with {@code IBV_WC_RETRY_EXC_ERR} ({@code retry_cnt} used up). */
    @Label("Retry Exceeded")
    @Description("IBV_WC_RETRY_EXC_ERR completions")
    public long retryExceeded;

    /** Send WRs that failed with {@code IBV_WC_RNR_RETRY_EXC_ERR} ({@code rnr_retry} used up). */
    @Label("RNR Retry Exceeded")
    @Description("IBV_WC_RNR_RETRY_EXC_ERR completions")
    public long rnrRetryExceeded;
}
