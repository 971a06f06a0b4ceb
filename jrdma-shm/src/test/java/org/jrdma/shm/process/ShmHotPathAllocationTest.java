package org.jrdma.shm.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 18's "0 B/op": once warm, a round of post_recv, post_send and polls allocates nothing,
 * on the posting thread and on every other thread of the JVM (the progress thread included).
 * The two QPs are two contexts' of this process, which go through the same shared tables and
 * rings as two processes do.
 */
class ShmHotPathAllocationTest {
    enum Op { SEND, SEND_INLINE, SEND_WITH_IMM, WRITE, WRITE_WITH_IMM, READ, FETCH_ADD, CMP_SWAP }

    @ParameterizedTest
    @EnumSource(Op.class)
    void roundsAllocateNothingOnceWarm(Op op) {
        try (PeerEnd a = new PeerEnd(1 << 16, true); PeerEnd b = new PeerEnd(1 << 16, true)) {
            a.connect(b.line());
            b.connect(a.line());
            Rounds r = new Rounds(a, b, op);
            for (int i = 0; i < 20_000; i++) {
                r.run();
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long[] all = mx.getAllThreadIds();
            long me = Thread.currentThread().threadId();
            long beforeAll = sum(mx.getThreadAllocatedBytes(all));
            long beforeMe = mx.getThreadAllocatedBytes(me);
            int rounds = 50_000;
            for (int i = 0; i < rounds; i++) {
                r.run();
            }
            long perRoundMe = (mx.getThreadAllocatedBytes(me) - beforeMe) / rounds;
            long perRoundAll = (sum(mx.getThreadAllocatedBytes(all)) - beforeAll) / rounds;
            assertThat(perRoundMe).as("bytes allocated per " + op + " round, this thread").isZero();
            assertThat(perRoundAll).as("bytes allocated per " + op + " round, every thread").isLessThan(8);
            // every request B served, one packet each at MTU 4096 (the messages are ≤ 1024 B)
            assertThat(b.qp.counters()).as("B's counters").containsEntry("rcvd_packets", 20_000L + rounds);
        }
    }

    private static long sum(long[] bytes) {
        long s = 0;
        for (long b : bytes) {
            s += Math.max(0, b);
        }
        return s;
    }

    /** One operation and its completions, built once and reused. */
    private static final class Rounds implements Runnable {
        private final PeerEnd a;
        private final PeerEnd b;
        private final Op op;
        private final RecvWorkRequest recv = new RecvWorkRequest();
        private final SendWorkRequest send = new SendWorkRequest();
        private final WorkCompletion[] wc = {new WorkCompletion()};
        private final boolean consumesReceive;

        Rounds(PeerEnd a, PeerEnd b, Op op) {
            this.a = a;
            this.b = b;
            this.op = op;
            recv.wrId(7).sg(new Sge(b.mr.addr() + 8192, 4096, b.mr.lkey()));
            int flags = SendFlags.SIGNALED | (op == Op.SEND_INLINE ? SendFlags.INLINE : 0);
            Sge sge = op == Op.FETCH_ADD || op == Op.CMP_SWAP ? new Sge(a.mr.addr() + 4096, 8, a.mr.lkey())
                    : new Sge(a.mr.addr(), op == Op.SEND_INLINE ? 64 : 1024, a.mr.lkey());
            send.wrId(9).flags(flags).sg(sge);
            switch (op) {
                case SEND, SEND_INLINE -> send.opcode(WrOpcode.SEND);
                case SEND_WITH_IMM -> send.opcode(WrOpcode.SEND_WITH_IMM).imm(0x01020304);
                case WRITE -> send.opcode(WrOpcode.RDMA_WRITE).rdma(b.mr.addr(), b.mr.rkey());
                case WRITE_WITH_IMM -> send.opcode(WrOpcode.RDMA_WRITE_WITH_IMM).rdma(b.mr.addr(), b.mr.rkey()).imm(5);
                case READ -> send.opcode(WrOpcode.RDMA_READ).rdma(b.mr.addr(), b.mr.rkey());
                case FETCH_ADD -> send.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).atomic(b.mr.addr() + 64, b.mr.rkey(), 1, 0);
                case CMP_SWAP -> send.opcode(WrOpcode.ATOMIC_CMP_AND_SWP).atomic(b.mr.addr() + 64, b.mr.rkey(), 0, 0);
            }
            consumesReceive = op == Op.SEND || op == Op.SEND_INLINE || op == Op.SEND_WITH_IMM || op == Op.WRITE_WITH_IMM;
        }

        @Override
        public void run() {
            if (consumesReceive) {
                b.qp.postRecv(recv);
            }
            a.qp.postSend(send);
            await(a.cq, 9);
            if (consumesReceive) {
                await(b.cq, 7);
            }
        }

        private void await(CompletionQueue cq, long wrId) {
            long spins = 0;
            while (cq.poll(wc) == 0) {
                if (++spins > 50_000_000L) {
                    throw new AssertionError("no completion for " + op);
                }
                Thread.onSpinWait();
            }
            if (wc[0].status != WcStatus.SUCCESS || wc[0].wrId != wrId) { // no AssertJ here: it would allocate
                throw new AssertionError("expected wr_id " + wrId + ": " + wc[0]);
            }
        }
    }
}
