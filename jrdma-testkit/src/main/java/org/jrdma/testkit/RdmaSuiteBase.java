package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * What the RDMA suites share: work-request builders for every opcode, guarded memory (a region
 * registered in the middle of canary bytes, so a stray byte on either side is seen), keys that
 * no live MR owns, QP-state waits, the feature each opcode needs, and the timer tables of
 * ROCEV2-FACTS §2.2–2.3.
 */
public abstract class RdmaSuiteBase extends ProviderSuite {
    /** For a provider's subclass, which supplies the fixture. */
    public RdmaSuiteBase() {
    }

    /** The canary byte guarded memory is filled with: 0xA5. */
    protected static final byte CANARY = (byte) 0xA5;
    /** Canary bytes kept before and after every target range. */
    protected static final int GUARD = 64;
    /** The immediate data the suites send: 0x0A0B0C0D. */
    protected static final int IMM = 0x0A0B0C0D;
    /** 1 MiB, in bytes. */
    protected static final int MIB = 1 << 20;
    /** Everything a remote peer may do, as an MR's or a QP's access flags. */
    protected static final int ALL_REMOTE = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE
            | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;

    /** RNR NAK timer per 5-bit code, in µs (ROCEV2-FACTS §2.3; code 0 is the longest). */
    private static final long[] RNR_TIMER_MICROS = {655_360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640,
            960, 1_280, 1_920, 2_560, 3_840, 5_120, 7_680, 10_240, 15_360, 20_480, 30_720, 40_960, 61_440, 81_920,
            122_880, 163_840, 245_760, 327_680, 491_520};

    // ---- features -------------------------------------------------------------------------------

    /**
     * Skips the test unless the provider implements {@code op} (SEND needs nothing).
     *
     * @param op the opcode the test posts
     */
    protected final void assumeOpcode(WrOpcode op) {
        switch (op) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> assumeSupported(Feature.RDMA_WRITE);
            case RDMA_READ -> assumeSupported(Feature.RDMA_READ);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> assumeSupported(Feature.ATOMICS);
            case BIND_MW, LOCAL_INV, SEND_WITH_INV -> assumeSupported(Feature.MEMORY_WINDOW_TYPE_2);
            default -> { }
        }
    }

    /**
     * Is {@code op} implemented? For tests that mix opcodes and leave out the missing ones.
     *
     * @param op the opcode
     * @return true if the provider implements it
     */
    protected final boolean supportsOpcode(WrOpcode op) {
        return switch (op) {
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> fx.supports(Feature.RDMA_WRITE);
            case RDMA_READ -> fx.supports(Feature.RDMA_READ);
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> fx.supports(Feature.ATOMICS);
            default -> true;
        };
    }

    // ---- work requests --------------------------------------------------------------------------

    /**
     * A SEND of {@code local}.
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param local the gather entry
     * @return the work request
     */
    protected static SendWorkRequest send(long wrId, int flags, Sge local) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(flags).sg(local);
    }

    /**
     * An RDMA WRITE of {@code local} (null: zero bytes, no SGE) to {@code remoteAddr}.
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param local the gather entry, or null
     * @param remoteAddr the remote virtual address
     * @param rkey the remote key
     * @return the work request
     */
    protected static SendWorkRequest write(long wrId, int flags, Sge local, long remoteAddr, int rkey) {
        return withSge(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_WRITE).flags(flags)
                .rdma(remoteAddr, rkey), local);
    }

    /**
     * An RDMA READ from {@code remoteAddr} into {@code local} (null: zero bytes, no SGE).
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param local the scatter entry, or null
     * @param remoteAddr the remote virtual address
     * @param rkey the remote key
     * @return the work request
     */
    protected static SendWorkRequest read(long wrId, int flags, Sge local, long remoteAddr, int rkey) {
        return withSge(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_READ).flags(flags)
                .rdma(remoteAddr, rkey), local);
    }

    /**
     * CMP_AND_SWP: if the remote word equals {@code compare} it becomes {@code swap}; the original lands in {@code local}.
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param local where the original 8 bytes land
     * @param remoteAddr the remote word's address, 8-byte aligned
     * @param rkey the remote key
     * @param compare the value to compare with
     * @param swap the value to store on a match
     * @return the work request
     */
    protected static SendWorkRequest compareSwap(long wrId, int flags, Sge local, long remoteAddr, int rkey,
            long compare, long swap) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).flags(flags).sg(local)
                .atomic(remoteAddr, rkey, compare, swap);
    }

    /**
     * FETCH_AND_ADD: adds {@code add} to the remote word; the original lands in {@code local}.
     *
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param local where the original 8 bytes land
     * @param remoteAddr the remote word's address, 8-byte aligned
     * @param rkey the remote key
     * @param add the value to add
     * @return the work request
     */
    protected static SendWorkRequest fetchAdd(long wrId, int flags, Sge local, long remoteAddr, int rkey, long add) {
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).flags(flags).sg(local)
                .atomic(remoteAddr, rkey, add, 0);
    }

    /**
     * Any opcode at a valid remote target of {@code peer}: for WRs that are only flushed or refused.
     *
     * @param op the opcode
     * @param wrId the work request ID
     * @param flags {@code SendFlags} bits
     * @param self the posting side, whose buffers are the local SGE
     * @param peer the side whose buffers are the remote target
     * @return the work request
     */
    protected static SendWorkRequest anyOp(WrOpcode op, long wrId, int flags, Endpoint self, Endpoint peer) {
        SendWorkRequest wr = new SendWorkRequest().wrId(wrId).opcode(op).flags(flags).imm(IMM);
        return switch (op) {
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> wr.sg(Sge.of(self.recvMr, 0, 8))
                    .atomic(peer.recvMr.addr(), peer.recvMr.rkey(), 1, 2);
            case RDMA_READ -> wr.sg(Sge.of(self.recvMr, 0, 64)).rdma(peer.sendMr.addr(), peer.sendMr.rkey());
            default -> wr.sg(Sge.of(self.sendMr, 0, 64)).rdma(peer.recvMr.addr(), peer.recvMr.rkey());
        };
    }

    /**
     * A receive into {@code local}.
     *
     * @param wrId the work request ID
     * @param local the scatter entry, or null for none
     * @return the work request
     */
    protected static RecvWorkRequest recv(long wrId, Sge local) {
        RecvWorkRequest wr = new RecvWorkRequest().wrId(wrId);
        return local == null ? wr : wr.sg(local);
    }

    private static SendWorkRequest withSge(SendWorkRequest wr, Sge local) {
        return local == null ? wr : wr.sg(local);
    }

    // ---- memory ---------------------------------------------------------------------------------

    /**
     * {@code bytes} registered in {@code pd} with {@code access}, between {@link #GUARD} canary
     * bytes on each side that belong to no MR; the region itself starts filled with the canary.
     *
     * @param pd the protection domain
     * @param bytes the region's size
     * @param access {@code AccessFlags} bits
     * @return the guarded region, closed after the test
     */
    protected final Guarded guarded(ProtectionDomain pd, int bytes, int access) {
        Arena arena = track(Arena.ofShared());
        MemorySegment whole = arena.allocate(bytes + 2L * GUARD, 4096);
        whole.fill(CANARY);
        MemoryRegion mr = track(pd.registerMemory(whole.asSlice(GUARD, bytes), access, arena));
        return new Guarded(whole, mr);
    }

    /**
     * A registered region with canaries around it; {@link #mr()} covers only the middle.
     *
     * @param whole the region and its guards
     * @param mr the MR over the middle
     */
    protected record Guarded(MemorySegment whole, MemoryRegion mr) {
        /**
         * The registered middle.
         *
         * @return the MR's memory
         */
        public MemorySegment inside() {
            return mr.segment();
        }

        /**
         * Fails unless every byte, inside the MR and around it, is still the canary.
         *
         * @param what names the memory in the failure
         */
        public void assertUntouched(String what) {
            Payload.assertFilledWith(whole, CANARY, what);
        }

        /**
         * Fails unless the canaries around the MR are intact.
         *
         * @param what names the memory in the failure
         */
        public void assertGuardsIntact(String what) {
            Payload.assertFilledWith(whole.asSlice(0, GUARD), CANARY, what + ": guard before the MR");
            Payload.assertFilledWith(whole.asSlice(GUARD + mr.length()), CANARY, what + ": guard after the MR");
        }
    }

    /**
     * An rkey that was valid and is no longer: keys are unique among live MRs, so no MR owns it.
     *
     * @param pd the protection domain to register and deregister in
     * @return the stale rkey
     */
    protected final int staleRkey(ProtectionDomain pd) {
        Arena arena = track(Arena.ofShared());
        MemoryRegion gone = pd.registerMemory(arena.allocate(4096, 4096), ALL_REMOTE, arena);
        int rkey = gone.rkey();
        gone.close();
        return rkey;
    }

    /**
     * An lkey that was valid and is no longer.
     *
     * @param pd the protection domain to register and deregister in
     * @return the stale lkey
     */
    protected final int staleLkey(ProtectionDomain pd) {
        Arena arena = track(Arena.ofShared());
        MemoryRegion gone = pd.registerMemory(arena.allocate(4096, 4096), ALL_REMOTE, arena);
        int lkey = gone.lkey();
        gone.close();
        return lkey;
    }

    // ---- states and completions -----------------------------------------------------------------

    /**
     * Waits until {@code qp} is in {@code state} (by ibv_query_qp).
     *
     * @param qp the QP
     * @param state the state awaited
     * @param who names the QP in the failure
     */
    protected final void awaitState(QueuePair qp, QpState state, String who) {
        await(() -> qp.query().qpState() == state, () -> who + " in " + state + " (is " + qp.query().qpState() + ")");
    }

    /**
     * Fails unless {@code qp} is in {@code state} now.
     *
     * @param qp the QP
     * @param state the state expected
     * @param who names the QP in the failure
     */
    protected static void assertState(QueuePair qp, QpState state, String who) {
        assertThat(qp.query().qpState()).as("state of %s", who).isEqualTo(state);
    }

    /**
     * Status, wr_id and qp_num of a completion.
     *
     * @param wc the completion
     * @param wrId the wr_id expected
     * @param status the status expected
     * @param qp the QP whose number is expected
     */
    protected static void assertWc(WorkCompletion wc, long wrId, WcStatus status, QueuePair qp) {
        VerbsAssertions.assertCompletion(wc, wrId, status);
        assertThat(wc.qpNum).as("qp_num of %s", wc).isEqualTo(qp.qpNum());
    }

    /**
     * The next completion of {@code cq} and how long after {@code startNanos} it was polled.
     *
     * @param cq the CQ to poll
     * @param startNanos the start, by {@link System#nanoTime()}
     * @param what what is awaited, for the failure
     * @return the completion and the time it took
     */
    protected final Timed awaitTimed(CompletionQueue cq, long startNanos, String what) {
        WorkCompletion wc = awaitCompletion(cq, what);
        return new Timed(wc, Duration.ofNanos(System.nanoTime() - startNanos));
    }

    /**
     * A completion and when it was polled.
     *
     * @param wc the completion
     * @param elapsed how long after the start it was polled
     */
    protected record Timed(WorkCompletion wc, Duration elapsed) {
    }

    /**
     * Fails unless nothing completes on {@code cq} at once (one poll, no settle time).
     *
     * @param cq the CQ
     * @param what what it belongs to, for the failure
     */
    protected static void assertEmptyNow(CompletionQueue cq, String what) {
        WorkCompletion[] wc = newCompletions(1);
        assertThat(cq.poll(wc)).as("completions on %s: %s", what, wc[0]).isZero();
    }

    // ---- timers ---------------------------------------------------------------------------------

    /**
     * The local ACK timeout of attr.timeout {@code t}: 4.096 µs × 2^t (ROCEV2-FACTS §2.2).
     *
     * @param t the exponent, 0..31
     * @return the timeout
     */
    protected static Duration ackTimeout(int t) {
        return Duration.ofNanos(4096L << t);
    }

    /**
     * The RNR NAK timer of code {@code code} (ROCEV2-FACTS §2.3).
     *
     * @param code the 5-bit code, 0..31
     * @return the timer
     */
    protected static Duration rnrTimer(int code) {
        return Duration.ofNanos(RNR_TIMER_MICROS[code] * 1000);
    }
}
