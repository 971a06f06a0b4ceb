package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * DESIGN "hot path without allocation": post_recv, post_send, poll and the packet handling
 * reuse preallocated objects. With the engine in INVOKER mode this thread runs every engine
 * pass itself, so its allocation counter sees all of the work.
 */
class HotPathAllocationTest {
    @Test
    void sendRecvRoundsAllocateNothingOnceWarm() {
        SoftDevice dev = FreshDevices.fresh("alloc", SoftOptions.defaults().threading(ThreadingMode.INVOKER));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            RecvWorkRequest recv = new RecvWorkRequest();
            Sge recvSge = new Sge();
            SendWorkRequest send = new SendWorkRequest().opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED);
            Sge sendSge = new Sge();
            WorkCompletion[] wc = {new WorkCompletion()};
            Runnable round = () -> {
                recvSge.set(p.mrB.addr(), 3000, p.mrB.lkey());
                p.b.postRecv(recv.wrId(1).sg(recvSge));
                sendSge.set(p.mrA.addr(), 3000, p.mrA.lkey());
                p.a.postSend(send.wrId(2).sg(sendSge));
                awaitOne(p, true, wc);
                awaitOne(p, false, wc);
            };
            for (int i = 0; i < 5_000; i++) {
                round.run();
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long tid = Thread.currentThread().threadId();
            int rounds = 20_000;
            long before = mx.getThreadAllocatedBytes(tid);
            for (int i = 0; i < rounds; i++) {
                round.run();
            }
            long perRound = (mx.getThreadAllocatedBytes(tid) - before) / rounds;
            // A round = post_recv + post_send (3 data packets) + ACK + 2 completions polled.
            assertThat(perRound).as("bytes allocated per SEND/RECV round").isLessThan(16);
        }
    }

    /** Polls (which drives the engine in INVOKER mode) until the receive or the send completes. */
    private static void awaitOne(RcPair p, boolean receive, WorkCompletion[] wc) {
        WorkCompletion c = null;
        long spins = 0;
        while (c == null) {
            p.hca().doWork(); // INVOKER mode: this thread is the engine
            if ((receive ? p.cqB : p.cqA).poll(wc) == 1) {
                c = wc[0];
            } else if (++spins > 50_000_000L) {
                throw new AssertionError("no completion");
            }
        }
        if (c.status != WcStatus.SUCCESS) { // no AssertJ here: it would allocate inside the measured loop
            throw new AssertionError("completion failed: " + c);
        }
    }
}
