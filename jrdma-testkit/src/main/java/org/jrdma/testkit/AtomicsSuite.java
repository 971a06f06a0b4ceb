package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CMP_AND_SWP and FETCH_AND_ADD (ROCEV2-FACTS §1.5 AtomicETH, §4.2 ATOMIC_REPLY, §4.4
 * ATOMIC_ACKNOWLEDGE): the remote 8-byte word changes as the operation says and nothing around
 * it does, the original value lands in the requester's 8-byte SGE, and N adds from one QP are
 * counted exactly with running sums returned. Words are in the responder's host byte order on
 * both sides (rxe: {@code *vaddr} at the responder, {@code atmack_orig} converted back at the
 * requester), which {@link ValueLayout#JAVA_LONG} reads here.
 */
public abstract class AtomicsSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public AtomicsSuite() {
    }

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;
    /** The target word sits 8 bytes into a 64-byte guarded region; the rest must stay canary. */
    private static final int AT = 8;

    private Endpoint a;
    private Endpoint b;
    private Guarded target;

    /** Skips unless the provider has {@link Feature#ATOMICS}; connects a pair with remote atomic access. */
    @BeforeEach
    protected final void connectAtomicPair() {
        assumeSupported(Feature.ATOMICS);
        Loopback lb = loopback(Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE));
        a = lb.a();
        b = lb.b();
        target = guarded(b.pd, 64, ALL_REMOTE);
    }

    @Test
    void compareAndSwapWithAMatchingCompareStoresTheSwapAndReturnsTheOriginal() {
        long original = 0x1122334455667788L;
        long swap = 0x0123456789ABCDEFL;
        setWord(original);
        a.qp.postSend(compareSwap(1, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), word(), target.mr().rkey(),
                original, swap));
        assertAtomicCompletion(awaitCompletion(a.sendCq, "the CMP_AND_SWP"), 1, WcOpcode.COMP_SWAP);
        assertThat(wordValue()).as("the remote word after a matching CMP_AND_SWP").isEqualTo(swap);
        assertThat(a.recvMr.segment().get(WORD, 0)).as("the original value returned").isEqualTo(original);
        assertNeighboursIntact();
    }

    @Test
    void compareAndSwapWithAMismatchLeavesTheWordAndReturnsTheOriginal() {
        long original = 0x7777_0000_1111_2222L;
        setWord(original);
        a.qp.postSend(compareSwap(2, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), word(), target.mr().rkey(),
                original + 1, 42));
        assertAtomicCompletion(awaitCompletion(a.sendCq, "the CMP_AND_SWP"), 2, WcOpcode.COMP_SWAP);
        assertThat(wordValue()).as("the remote word after a failed CMP_AND_SWP").isEqualTo(original);
        assertThat(a.recvMr.segment().get(WORD, 0)).as("the original value returned").isEqualTo(original);
        assertNeighboursIntact();
    }

    /**
     * 500 seeded adds from one QP with a window as deep as the send queue: every add counted,
     * each returning the sum of all adds before it (RC executes atomics in order, one at a time).
     */
    @Test
    void fetchAndAddFromOneQpCountsEveryAddAndReturnsTheRunningSums() {
        final int adds = 500;
        long start = 0x0FFF_FFFF_FFFF_FF00L;
        setWord(start);
        long[] delta = new Random(0xADD).longs(adds, 1, 1L << 40).toArray();
        MemorySegment results = a.recvMr.segment();
        int window = Math.min(32, a.qp.cap().maxSendWr());
        int[] posted = {0};
        int[] done = {0};
        WorkCompletion[] wc = newCompletions(window);
        await(() -> {
            int n = a.sendCq.poll(wc);
            for (int i = 0; i < n; i++) {
                assertAtomicCompletion(wc[i], done[0]++, WcOpcode.FETCH_ADD);
            }
            while (posted[0] < adds && posted[0] - done[0] < window) {
                int k = posted[0]++;
                a.qp.postSend(fetchAdd(k, SendFlags.SIGNALED, Sge.of(a.recvMr, 8L * k, 8), word(),
                        target.mr().rkey(), delta[k]));
            }
            return done[0] == adds;
        }, () -> adds + " FETCH_AND_ADDs: posted " + posted[0] + ", completed " + done[0]);
        long sum = start;
        for (int k = 0; k < adds; k++) {
            assertThat(results.get(WORD, 8L * k)).as("value returned by add %d", k).isEqualTo(sum);
            sum += delta[k];
        }
        assertThat(wordValue()).as("the remote word after %d adds", adds).isEqualTo(sum);
        assertNeighboursIntact();
    }

    /** The word is a 64-bit integer modulo 2^64: adding past the top wraps, nothing spills over. */
    @Test
    void fetchAndAddWrapsModulo2To64() {
        setWord(-3L);
        a.qp.postSend(fetchAdd(3, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), word(), target.mr().rkey(), 5));
        assertAtomicCompletion(awaitCompletion(a.sendCq, "the wrapping FETCH_AND_ADD"), 3, WcOpcode.FETCH_ADD);
        assertThat(wordValue()).isEqualTo(2L);
        assertThat(a.recvMr.segment().get(WORD, 0)).isEqualTo(-3L);
        assertNeighboursIntact();
    }

    /** A CMP_AND_SWP that depends on the FETCH_AND_ADD before it sees that add (in-order execution). */
    @Test
    void compareAndSwapSeesTheAddPostedBeforeIt() {
        setWord(100);
        a.qp.postSend(fetchAdd(4, SendFlags.SIGNALED, Sge.of(a.recvMr, 0, 8), word(), target.mr().rkey(), 11));
        a.qp.postSend(compareSwap(5, SendFlags.SIGNALED, Sge.of(a.recvMr, 8, 8), word(), target.mr().rkey(), 111, 7));
        assertAtomicCompletion(awaitCompletion(a.sendCq, "the FETCH_AND_ADD"), 4, WcOpcode.FETCH_ADD);
        assertAtomicCompletion(awaitCompletion(a.sendCq, "the CMP_AND_SWP"), 5, WcOpcode.COMP_SWAP);
        assertThat(a.recvMr.segment().get(WORD, 0)).isEqualTo(100L);
        assertThat(a.recvMr.segment().get(WORD, 8)).isEqualTo(111L);
        assertThat(wordValue()).isEqualTo(7L);
        assertState(b.qp, QpState.RTS, "B");
    }

    // ---- helpers ------------------------------------------------------------------------------

    private long word() {
        return target.mr().addr() + AT;
    }

    private void setWord(long value) {
        target.inside().set(WORD, AT, value);
    }

    private long wordValue() {
        return target.inside().get(WORD, AT);
    }

    private void assertAtomicCompletion(WorkCompletion wc, long wrId, WcOpcode opcode) {
        assertWc(wc, wrId, WcStatus.SUCCESS, a.qp);
        assertThat(wc.opcode).as("opcode of %s", wc).isEqualTo(opcode);
        if (fx.supports(Feature.SEND_COMPLETION_BYTE_LEN)) {
            assertThat(wc.byteLen).as("byte_len of %s", wc).isEqualTo(8);
        }
    }

    /** Everything but the target word is still canary. */
    private void assertNeighboursIntact() {
        MemorySegment whole = target.whole();
        Payload.assertFilledWith(whole.asSlice(0, GUARD + AT), CANARY, "bytes before the atomic word");
        Payload.assertFilledWith(whole.asSlice(GUARD + AT + 8), CANARY, "bytes after the atomic word");
    }
}
