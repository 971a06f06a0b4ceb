package org.jrdma.soft;

import java.util.Map;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.verbs.jmx.QueuePairMXBean;

/**
 * A soft QP's MXBean. The QP's state and queues are read under its monitor (as modify and
 * post hold it), so a JMX client sees a consistent state; the counters need no lock.
 */
final class QpBean implements QueuePairMXBean {
    private final SoftQp qp;
    private final String device;

    QpBean(SoftQp qp, String device) {
        this.qp = qp;
        this.device = device;
    }

    private TransportQp t() {
        return qp.transport();
    }

    @Override
    public String getDevice() {
        return device;
    }

    @Override
    public String getQpn() {
        return "0x" + Integer.toHexString(t().qpn);
    }

    @Override
    public String getType() {
        return qp.qpType().name();
    }

    @Override
    public String getState() {
        synchronized (qp) {
            return t().state().name();
        }
    }

    @Override
    public String getDestQpn() {
        synchronized (qp) {
            return "0x" + Integer.toHexString(t().destQpn());
        }
    }

    @Override
    public int getSqPsn() {
        synchronized (qp) {
            return t().sqPsn();
        }
    }

    @Override
    public int getOutstandingSendWrs() {
        synchronized (qp) {
            return t().sendQueueDepth();
        }
    }

    @Override
    public int getOutstandingRecvWrs() {
        synchronized (qp) {
            return t().recvQueueDepth();
        }
    }

    @Override
    public Map<String, Long> getCounters() {
        return t().counters.snapshot();
    }

    @Override
    public long getRetransmittedPackets() {
        return t().counters.get(QpCounter.RETRANSMITTED_PACKETS);
    }

    @Override
    public long getRetryTimeouts() {
        return t().counters.get(QpCounter.RETRY_TIMEOUTS);
    }

    @Override
    public long getRnrNaksSent() {
        return t().counters.get(QpCounter.RNR_NAKS_SENT);
    }

    @Override
    public long getRnrNaksReceived() {
        return t().counters.get(QpCounter.RNR_NAKS_RCVD);
    }
}
