package org.jrdma.verbs.jmx;

import java.util.Map;

/**
 * An open device, as JMX shows it: a few facts and the device counters of this process
 * (the names {@code jrdma devinfo -v} prints), the best-known ones also as their own attribute.
 */
public interface DeviceMXBean {
    String getName();

    /** The provider's name (soft, ibv). */
    String getProvider();

    /** Port 1's state: ACTIVE, DOWN, or FAILED once the device failed for good. */
    String getPortState();

    /** QPs that exist on the device in this process. */
    int getQueuePairs();

    /** Every device counter by its name (sent_packets, retransmitted_packets, drop_&lt;reason&gt;, …). */
    Map<String, Long> getCounters();

    long getSentPackets();

    long getReceivedPackets();

    long getRetransmittedPackets();

    long getRetryTimeouts();

    long getRnrNaksSent();

    long getRnrNaksReceived();

    /** Received packets dropped, all reasons together (the drop_* counters summed). */
    long getDroppedPackets();
}
