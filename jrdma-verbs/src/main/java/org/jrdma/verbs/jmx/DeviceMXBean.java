package org.jrdma.verbs.jmx;

import java.util.Map;

/**
 * An open device, as JMX shows it: a few facts and the device counters of this process
 * (the names {@code jrdma devinfo -v} prints), the best-known ones also as their own attribute.
 */
public interface DeviceMXBean {
    /**
     * The device name, as {@code ibv_get_device_name} gives it.
     *
     * @return the device name
     */
    String getName();

    /**
     * The provider's name: {@code soft} or {@code ibv}.
     *
     * @return the provider's name
     */
    String getProvider();

    /**
     * Port 1's state: ACTIVE, DOWN, or FAILED once the device failed for good.
     *
     * @return ACTIVE, DOWN or FAILED
     */
    String getPortState();

    /**
     * QPs that exist on the device in this process.
     *
     * @return the number of QPs
     */
    int getQueuePairs();

    /**
     * Every device counter by its name ({@code sent_packets}, {@code retransmitted_packets},
     * {@code drop_<reason>}, …).
     *
     * @return a snapshot of the counters, by name
     */
    Map<String, Long> getCounters();

    /**
     * Packets sent, all QPs together (counter {@code sent_packets}).
     *
     * @return packets sent
     */
    long getSentPackets();

    /**
     * Packets received, all QPs together (counter {@code rcvd_packets}).
     *
     * @return packets received
     */
    long getReceivedPackets();

    /**
     * Packets sent again after a timeout or a sequence NAK (counter {@code retransmitted_packets}).
     *
     * @return packets retransmitted
     */
    long getRetransmittedPackets();

    /**
     * Local ACK timeouts that led to a retransmission (counter {@code retry_timeouts}).
     *
     * @return retry timeouts
     */
    long getRetryTimeouts();

    /**
     * RNR NAKs sent: a SEND arrived with no receive posted (counter {@code rnr_naks_sent}).
     *
     * @return RNR NAKs sent
     */
    long getRnrNaksSent();

    /**
     * RNR NAKs received from peers (counter {@code rnr_naks_rcvd}).
     *
     * @return RNR NAKs received
     */
    long getRnrNaksReceived();

    /**
     * Received packets dropped, all reasons together (the {@code drop_*} counters summed).
     *
     * @return packets dropped
     */
    long getDroppedPackets();
}
