package org.jrdma.soft;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * RC's promise under a bad network, measured: {@code n} SENDs of {@code size} bytes from QP a
 * to QP b, each message in its own slot of the buffers, a window of them outstanding; then a
 * few spare receives that a re-executed duplicate would consume. Used by the impaired-device
 * tests and by the network-namespace child process.
 */
final class SendStream {
    static final int WINDOW = 32;
    private static final int SPARE_RECEIVES = 4;

    /**
     * @param sendOk send completions with SUCCESS, in wr_id order
     * @param recvOk receive completions with SUCCESS and the full length, in wr_id order
     * @param firstProblem the first unexpected completion or the timeout, or null
     * @param bytesMatch every received byte equals the sent one
     * @param extraReceives spare receives consumed afterwards (a duplicate executed twice)
     */
    record Result(int sendOk, int recvOk, String firstProblem, boolean bytesMatch, int extraReceives) {
        boolean perfect(int n) {
            return sendOk == n && recvOk == n && firstProblem == null && bytesMatch && extraReceives == 0;
        }

        String line() {
            return "sendOk=" + sendOk + " recvOk=" + recvOk + " bytesMatch=" + bytesMatch + " extraReceives="
                    + extraReceives + " problem=" + (firstProblem == null ? "none" : firstProblem.replace(' ', '_'));
        }
    }

    private final QueuePair a;
    private final CompletionQueue cqA;
    private final MemoryRegion mrA;
    private final QueuePair b;
    private final CompletionQueue cqB;
    private final MemoryRegion mrB;

    SendStream(QueuePair a, CompletionQueue cqA, MemoryRegion mrA, QueuePair b, CompletionQueue cqB, MemoryRegion mrB) {
        this.a = a;
        this.cqA = cqA;
        this.mrA = mrA;
        this.b = b;
        this.cqB = cqB;
        this.mrB = mrB;
    }

    static SendStream of(RcPair p) {
        return new SendStream(p.a, p.cqA, p.mrA, p.b, p.cqB, p.mrB);
    }

    /** Fills a's buffer with a pattern from {@code seed} and runs the stream; b's buffer needs (n + 1) × size bytes. */
    Result run(int n, int size, long seed, Duration deadline) {
        MemorySegment src = mrA.segment();
        MemorySegment dst = mrB.segment();
        java.util.Random r = new java.util.Random(seed);
        byte[] pattern = new byte[n * size];
        r.nextBytes(pattern);
        MemorySegment.copy(MemorySegment.ofArray(pattern), 0, src, 0, pattern.length);
        dst.fill((byte) 0);

        long end = System.nanoTime() + deadline.toNanos();
        WorkCompletion[] wc = {new WorkCompletion()};
        int posted = 0;
        int sendOk = 0;
        int recvOk = 0;
        String problem = null;
        while ((sendOk < n || recvOk < n) && problem == null) {
            while (posted < n && posted - sendOk < WINDOW) {
                b.postRecv(new RecvWorkRequest().wrId(posted).sg(Sge.of(mrB, (long) posted * size, size)));
                a.postSend(new SendWorkRequest().wrId(posted).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(mrA, (long) posted * size, size)));
                posted++;
            }
            boolean idle = true;
            if (cqA.poll(wc) == 1) {
                idle = false;
                if (wc[0].status != WcStatus.SUCCESS || wc[0].wrId != sendOk) {
                    problem = "send completion " + sendOk + ": " + wc[0];
                }
                sendOk++;
            }
            if (cqB.poll(wc) == 1) {
                idle = false;
                if (wc[0].status != WcStatus.SUCCESS || wc[0].wrId != recvOk || wc[0].byteLen != size) {
                    problem = "receive completion " + recvOk + ": " + wc[0];
                }
                recvOk++;
            }
            if (idle) {
                if (System.nanoTime() > end) {
                    problem = "timed out after " + deadline.toMillis() + " ms with " + sendOk + " sends and "
                            + recvOk + " receives completed";
                } else {
                    Thread.onSpinWait();
                }
            }
        }
        if (problem != null) {
            return new Result(sendOk, recvOk, problem, false, 0);
        }
        boolean bytesMatch = src.asSlice(0, (long) n * size).mismatch(dst.asSlice(0, (long) n * size)) == -1;

        // Retransmissions and delayed duplicates may still be on their way: none may execute again.
        for (int i = 0; i < SPARE_RECEIVES; i++) {
            b.postRecv(new RecvWorkRequest().wrId(n + i).sg(Sge.of(mrB, (long) n * size, size)));
        }
        int extra = RcPair.poll(cqB, SPARE_RECEIVES, Duration.ofMillis(100)).size();
        return new Result(sendOk, recvOk, null, bytesMatch, extra);
    }
}
