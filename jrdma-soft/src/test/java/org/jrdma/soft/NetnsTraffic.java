package org.jrdma.soft;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;

/**
 * The child process of {@link NetnsLossTest}: two soft devices on two addresses, an RC QP on
 * each, a stream of SENDs from the first to the second; prints one {@code RESULT} line and
 * exits 0 when everything arrived exactly once.
 *
 * <p>Usage: {@code NetnsTraffic ADDRESS_A ADDRESS_B MESSAGES SIZE TIMEOUT} (TIMEOUT: the QP
 * attribute, 4.096 µs × 2^TIMEOUT)
 */
public final class NetnsTraffic {
    private NetnsTraffic() {
    }

    public static void main(String[] args) throws Exception {
        InetAddress addrA = InetAddress.getByName(args[0]);
        InetAddress addrB = InetAddress.getByName(args[1]);
        int messages = Integer.parseInt(args[2]);
        int size = Integer.parseInt(args[3]);
        int timeout = Integer.parseInt(args[4]);
        long bytes = (long) (messages + 1) * size;

        SoftOptions plain = SoftOptions.defaults(); // the kernel is the lossy network here
        SoftDevice devA = new SoftDevice(new SoftDeviceSpec("nsa", addrA, 1500, false), plain);
        SoftDevice devB = new SoftDevice(new SoftDeviceSpec("nsb", addrB, 1500, false), plain);
        boolean perfect;
        try (Context ctxA = devA.open(); Context ctxB = devB.open();
                java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofShared()) {
            ProtectionDomain pdA = ctxA.allocPd();
            ProtectionDomain pdB = ctxB.allocPd();
            CompletionQueue cqA = ctxA.createCq(256, null);
            CompletionQueue cqB = ctxB.createCq(256, null);
            QueuePair a = pdA.createQp(new QpInitAttr().cq(cqA).cap(new QpCap(64, 64, 4, 4, 64)));
            QueuePair b = pdB.createQp(new QpInitAttr().cq(cqB).cap(new QpCap(64, 64, 4, 4, 64)));
            MemoryRegion mrA = pdA.registerMemory(arena.allocate(bytes, 64), AccessFlags.LOCAL_WRITE);
            MemoryRegion mrB = pdB.registerMemory(arena.allocate(bytes, 64), AccessFlags.LOCAL_WRITE);
            connect(a, b.qpNum(), ctxB, 0x100, 0x200, timeout);
            connect(b, a.qpNum(), ctxA, 0x200, 0x100, timeout);

            SendStream.Result r = new SendStream(a, cqA, mrA, b, cqB, mrB).run(messages, size, 42, Duration.ofSeconds(15));
            Map<String, Long> ca = ((SoftContext) ctxA).hca().countersSnapshot();
            Map<String, Long> cb = ((SoftContext) ctxB).hca().countersSnapshot();
            System.out.println("RESULT " + r.line()
                    + " retransmitted=" + (ca.get("retransmitted_packets") + cb.get("retransmitted_packets"))
                    + " retryTimeouts=" + (ca.get("retry_timeouts") + cb.get("retry_timeouts"))
                    + " seqNaks=" + cb.get("seq_naks_sent")
                    + " duplicates=" + cb.get("duplicate_requests"));
            System.out.flush();
            perfect = r.perfect(messages);
        }
        System.exit(perfect ? 0 : 1);
    }

    private static void connect(QueuePair qp, int remoteQpn, Context remote, int sqPsn, int rqPsn, int timeout) {
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(remoteQpn).rqPsn(rqPsn)
                .maxDestRdAtomic(1).minRnrTimer(1).ahAttr(AhAttr.roce(remote.queryGid(1, 0), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }
}
