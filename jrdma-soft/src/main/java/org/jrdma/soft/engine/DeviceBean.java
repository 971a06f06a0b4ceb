package org.jrdma.soft.engine;

import java.util.Map;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.jmx.DeviceMXBean;

/** A soft device's MXBean: reads the HCA's counters and port when JMX asks, nothing in between. */
final class DeviceBean implements DeviceMXBean {
    private final SoftHca hca;

    DeviceBean(SoftHca hca) {
        this.hca = hca;
    }

    @Override
    public String getName() {
        return hca.name();
    }

    @Override
    public String getProvider() {
        return "soft";
    }

    @Override
    public String getPortState() {
        return hca.portFailed() ? "FAILED" : hca.portActive() ? "ACTIVE" : "DOWN";
    }

    @Override
    public int getQueuePairs() {
        int n = 0;
        for (EngineQp q : hca.qps()) {
            if (q != null) {
                n++;
            }
        }
        return n;
    }

    @Override
    public Map<String, Long> getCounters() {
        return hca.countersSnapshot();
    }

    @Override
    public long getSentPackets() {
        return hca.count(QpCounter.SENT_PACKETS);
    }

    @Override
    public long getReceivedPackets() {
        return hca.count(QpCounter.RCVD_PACKETS);
    }

    @Override
    public long getRetransmittedPackets() {
        return hca.count(QpCounter.RETRANSMITTED_PACKETS);
    }

    @Override
    public long getRetryTimeouts() {
        return hca.count(QpCounter.RETRY_TIMEOUTS);
    }

    @Override
    public long getRnrNaksSent() {
        return hca.count(QpCounter.RNR_NAKS_SENT);
    }

    @Override
    public long getRnrNaksReceived() {
        return hca.count(QpCounter.RNR_NAKS_RCVD);
    }

    @Override
    public long getDroppedPackets() {
        long n = 0;
        for (DropReason r : DropReason.values()) {
            if (r != DropReason.NONE) {
                n += hca.drops(r);
            }
        }
        return n;
    }
}
