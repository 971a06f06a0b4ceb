package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertCompletion;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SEND and SEND_WITH_IMM between two connected RC QPs: segmentation at every MTU edge
 * (REL-24), byte-exact data, gather/scatter, signaling, completion fields as rxe reports them
 * (ROCEV2-FACTS §3.7), ordering, and the two error rows of RELIABILITY-SECURITY §2.4 that need
 * no fault injection.
 */
public abstract class SendRecvSuite extends ProviderSuite {
    /** For a provider's subclass, which supplies the fixture. */
    public SendRecvSuite() {
    }

    /** Immediate data is carried in network order end to end: whatever int goes in comes out. */
    private static final int IMM = 0x01020304;
    private static final byte CANARY = (byte) 0xA5;
    private static final int CANARY_BYTES = 64;
    private static final long SEED = 0xC0FFEE;
    private static final int MIB = 1 << 20;

    static Stream<Arguments> messages() {
        Stream<Arguments> edges = Stream.of(Mtu.MTU_256, Mtu.MTU_1024, Mtu.MTU_4096).flatMap(mtu -> {
            int m = mtu.bytes();
            return Stream.of(0, 1, m - 1, m, m + 1, 3 * m + 7).flatMap(size -> withEachOpcode(mtu, size));
        });
        Stream<Arguments> large = Stream.of(Mtu.MTU_1024, Mtu.MTU_4096).flatMap(mtu -> withEachOpcode(mtu, MIB));
        return Stream.concat(edges, large);
    }

    private static Stream<Arguments> withEachOpcode(Mtu mtu, int size) {
        return Stream.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM).map(op -> Arguments.of(mtu, size, op));
    }

    @ParameterizedTest(name = "{2} of {1} bytes at {0}")
    @MethodSource("messages")
    void sendArrivesByteForByteWithTheRightCompletions(Mtu mtu, int size, WrOpcode op) {
        assumeMtu(mtu);
        long maxMsg = context.queryDevice().maxMsgSize();
        assumeTrue(size <= maxMsg, () -> "the device's max_msg_sz is " + maxMsg);
        Loopback lb = loopback(Options.defaults().withMtu(mtu).withBufferBytes(size + CANARY_BYTES));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        MemorySegment message = a.sendMr.segment().asSlice(0, size);
        Payload.fill(message, SEED + size);
        b.recvMr.segment().fill(CANARY);

        b.qp.postRecv(new RecvWorkRequest().wrId(0xB0B).sg(Sge.of(b.recvMr)));
        SendWorkRequest wr = new SendWorkRequest().wrId(0xA11CE).opcode(op).flags(SendFlags.SIGNALED).imm(IMM);
        if (size > 0) {
            wr.sg(Sge.of(a.sendMr, 0, size)); // a zero-length SEND has no SGE at all
        }
        a.qp.postSend(wr);

        assertSendCompletion(awaitCompletion(a.sendCq, "the send"), 0xA11CE, op, size, a);
        assertRecvCompletion(awaitCompletion(b.recvCq, "the receive"), 0xB0B, op, size, b);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, size), message, "received message");
        Payload.assertFilledWith(b.recvMr.segment().asSlice(size), CANARY, "receive buffer past the message");
    }

    /** 477 bytes from three pieces, at MTU 256 (two packets), into 200 + 400 bytes. */
    @Test
    void threeSgeGatherArrivesInATwoSgeScatter() {
        assumeMtu(Mtu.MTU_256);
        assumeTrue(context.queryDevice().maxSge() >= 3, "the device allows 3 SGEs per WR");
        Loopback lb = loopback(Options.defaults().withMtu(Mtu.MTU_256).withBufferBytes(4096)
                .withCap(new QpCap(16, 16, 3, 2, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        MemorySegment out = a.sendMr.segment();
        MemorySegment in = b.recvMr.segment();
        Payload.fill(out, SEED);
        in.fill(CANARY);

        b.qp.postRecv(new RecvWorkRequest().wrId(7).sg(Sge.of(b.recvMr, 0, 200), Sge.of(b.recvMr, 1000, 400)));
        a.qp.postSend(new SendWorkRequest().wrId(8).flags(SendFlags.SIGNALED)
                .sg(Sge.of(a.sendMr, 0, 100), Sge.of(a.sendMr, 1000, 300), Sge.of(a.sendMr, 2000, 77)));

        assertSendCompletion(awaitCompletion(a.sendCq, "the gathered send"), 8, WrOpcode.SEND, 477, a);
        assertRecvCompletion(awaitCompletion(b.recvCq, "the scattered receive"), 7, WrOpcode.SEND, 477, b);
        MemorySegment sent = Payload.concat(out.asSlice(0, 100), out.asSlice(1000, 300), out.asSlice(2000, 77));
        Payload.assertSameBytes(Payload.concat(in.asSlice(0, 200), in.asSlice(1000, 277)), sent, "scattered message");
        Payload.assertFilledWith(in.asSlice(200, 800), CANARY, "gap between the two receive SGEs");
        Payload.assertFilledWith(in.asSlice(1277), CANARY, "second receive SGE past the message");
    }

    /** ibv_post_send.3: an unsignaled WR completes without a CQE; completion is in order. */
    @Test
    void unsignaledSendsProduceNoSendCompletionButALaterSignaledOneDoes() {
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        for (int i = 0; i < 4; i++) {
            b.qp.postRecv(new RecvWorkRequest().wrId(10 + i).sg(Sge.of(b.recvMr, 64L * i, 64)));
        }
        for (int i = 0; i < 4; i++) {
            a.qp.postSend(new SendWorkRequest().wrId(20 + i).flags(i == 3 ? SendFlags.SIGNALED : 0)
                    .sg(Sge.of(a.sendMr, 64L * i, 64)));
        }
        List<WorkCompletion> recvs = awaitCompletions(b.recvCq, 4, "four receives");
        for (int i = 0; i < 4; i++) {
            assertCompletion(recvs.get(i), 10 + i, WcStatus.SUCCESS);
        }
        assertCompletion(awaitCompletion(a.sendCq, "the signaled send"), 23, WcStatus.SUCCESS);
        assertNoCompletion(a.sendCq, "A's send CQ: the three unsignaled sends");
    }

    @Test
    void sqSigAllSignalsEverySend() {
        Loopback lb = loopback(Options.defaults().withSqSigAll(true));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        for (int i = 0; i < 3; i++) {
            b.qp.postRecv(new RecvWorkRequest().wrId(10 + i).sg(Sge.of(b.recvMr, 64L * i, 64)));
            a.qp.postSend(new SendWorkRequest().wrId(20 + i).sg(Sge.of(a.sendMr, 64L * i, 64)));
        }
        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 3, "three sends on an sq_sig_all QP");
        for (int i = 0; i < 3; i++) {
            assertCompletion(sends.get(i), 20 + i, WcStatus.SUCCESS);
        }
        awaitCompletions(b.recvCq, 3, "three receives");
        assertNoCompletion(a.sendCq, "A's send CQ after the three sends");
    }

    /**
     * 1000 messages through 16 receive slots reposted as they complete and a 16-deep send
     * window: completions on both sides in post order, each message in the slot its receive
     * named. A receive reposted late costs an RNR NAK and a retry, never a failure (RNR retry 7).
     */
    @Test
    void aThousandMessagesArriveInPostOrderWithReceivesRepostedAsTheyComplete() {
        final int messages = 1000;
        final int size = 64;
        final int ring = 16;
        Loopback lb = loopback(Options.defaults().withCap(new QpCap(ring, ring, 1, 1, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        int window = Math.min(ring, a.qp.cap().maxSendWr());
        MemorySegment expected = MemorySegment.ofArray(new byte[size]);
        WorkCompletion[] wc = newCompletions(ring);
        Flow f = new Flow();
        for (; f.recvPosted < ring; f.recvPosted++) {
            postSlot(b, f.recvPosted, ring, size);
        }
        await(() -> {
            int n = a.sendCq.poll(wc);
            for (int i = 0; i < n; i++) {
                assertCompletion(wc[i], f.sendDone++, WcStatus.SUCCESS);
            }
            n = b.recvCq.poll(wc);
            for (int i = 0; i < n; i++) {
                long k = f.recvDone++;
                assertCompletion(wc[i], k, WcStatus.SUCCESS);
                assertThat(wc[i].byteLen).as("byte_len of message %d", k).isEqualTo(size);
                Payload.fill(expected, SEED + k);
                Payload.assertSameBytes(slot(b.recvMr, k, ring, size), expected, "message " + k);
                if (f.recvPosted < messages) {
                    postSlot(b, f.recvPosted++, ring, size);
                }
            }
            // A slot is refilled only after the send that used it has completed.
            while (f.sent < messages && f.sent - f.sendDone < window) {
                long k = f.sent++;
                Payload.fill(slot(a.sendMr, k, ring, size), SEED + k);
                a.qp.postSend(new SendWorkRequest().wrId(k).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(a.sendMr, (k % ring) * size, size)));
            }
            return f.recvDone == messages && f.sendDone == messages;
        }, () -> messages + " messages: " + f);
        assertNoCompletion(a.sendCq, "A's send CQ after the last message");
        assertNoCompletion(b.recvCq, "B's receive CQ after the last message");
    }

    static Stream<Arguments> tooSmallReceives() {
        return Stream.of(Arguments.of(100, 50), Arguments.of(3 * 1024 + 7, 1024));
    }

    /**
     * rdma-unit-test SendWithTooSmallRecv (RELIABILITY-SECURITY §2.4): the responder completes
     * the receive with LOC_LEN_ERR and NAKs invalid request (class C), the requester completes
     * with REM_INV_REQ_ERR, and both QPs go to ERR.
     */
    @ParameterizedTest(name = "{0}-byte SEND into a {1}-byte receive")
    @MethodSource("tooSmallReceives")
    void sendLargerThanTheReceiveFailsBothSidesAndBothQpsEndInErr(int size, int recvBytes) {
        assumeMtu(Mtu.MTU_1024);
        Loopback lb = loopback(Options.defaults().withMtu(Mtu.MTU_1024).withBufferBytes(4096));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(b.recvMr, 0, recvBytes)));
        a.qp.postSend(new SendWorkRequest().wrId(2).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, size)));

        WorkCompletion s = awaitCompletion(a.sendCq, "the send into a too-small receive");
        // rxe 6.1 NAKs remote operational error instead (Feature.SEND_TOO_LONG_IS_INVALID_REQUEST)
        assertCompletion(s, 2, fx.supports(Feature.SEND_TOO_LONG_IS_INVALID_REQUEST) ? WcStatus.REM_INV_REQ_ERR
                : WcStatus.REM_OP_ERR);
        assertThat(s.qpNum).isEqualTo(a.qp.qpNum());
        WorkCompletion r = awaitCompletion(b.recvCq, "the too-small receive");
        assertCompletion(r, 1, fx.supports(Feature.SEND_TOO_LONG_IS_INVALID_REQUEST) ? WcStatus.LOC_LEN_ERR
                : WcStatus.LOC_QP_OP_ERR);
        assertThat(r.qpNum).isEqualTo(b.qp.qpNum());
        await(() -> a.qp.query().qpState() == QpState.ERR, "the requester QP in ERR");
        await(() -> b.qp.query().qpState() == QpState.ERR, "the responder QP in ERR");
    }

    /**
     * A local SGE with an invalid lkey completes with LOC_PROT_ERR, signaled or not (an error
     * always produces a completion, IBA 10.7.3.1), the QP goes to ERR and the next WR is
     * flushed; nothing reaches the peer, which stays in RTS (rdma-unit-test FlushErrorPollTogether).
     */
    @ParameterizedTest(name = "signaled: {0}")
    @ValueSource(booleans = {true, false})
    void sendWithABadLkeyCompletesWithLocalProtectionErrorAndMovesTheQpToErr(boolean signaled) {
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        // A key that was valid and is no longer: keys are unique among live MRs, so no MR owns it.
        Arena arena = track(Arena.ofShared());
        MemoryRegion gone = a.pd.registerMemory(arena.allocate(4096, 4096), AccessFlags.LOCAL_WRITE, arena);
        int staleLkey = gone.lkey();
        gone.close();

        b.qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(b.recvMr, 0, 64)));
        a.qp.postSend(new SendWorkRequest().wrId(5).flags(signaled ? SendFlags.SIGNALED : 0)
                .sg(new Sge(a.sendMr.addr(), 64, staleLkey)));
        a.qp.postSend(new SendWorkRequest().wrId(6).flags(SendFlags.SIGNALED).sg(Sge.of(a.sendMr, 0, 64)));

        List<WorkCompletion> sends = awaitCompletions(a.sendCq, 2, "the bad-lkey send and the one after it");
        assertCompletion(sends.get(0), 5, badLkeyStatus(sends.get(0)));
        assertCompletion(sends.get(1), 6, WcStatus.WR_FLUSH_ERR);
        await(() -> a.qp.query().qpState() == QpState.ERR, "the QP with the bad lkey in ERR");
        assertNoCompletion(b.recvCq, "B's receive CQ: nothing was sent");
        assertThat(b.qp.query().qpState()).as("the peer's state").isEqualTo(QpState.RTS);
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Counters of the ordering test, in message numbers (= wr_ids). */
    private static final class Flow {
        int sent;
        int sendDone;
        int recvDone;
        int recvPosted;

        @Override
        public String toString() {
            return "posted " + sent + ", send completions " + sendDone + ", receives posted " + recvPosted
                    + ", receive completions " + recvDone;
        }
    }

    private void assertSendCompletion(WorkCompletion wc, long wrId, WrOpcode op, int size, Endpoint sender) {
        assertCompletion(wc, wrId, WcStatus.SUCCESS);
        assertThat(wc.opcode).as("opcode of %s", wc).isEqualTo(WcOpcode.SEND);
        assertThat(wc.qpNum).as("qp_num of %s", wc).isEqualTo(sender.qp.qpNum());
        assertThat(wc.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", wc)
                .isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
        if (fx.supports(Feature.SEND_COMPLETION_BYTE_LEN)) {
            assertThat(Integer.toUnsignedLong(wc.byteLen)).as("byte_len of %s", wc).isEqualTo(size);
        }
    }

    private void assertRecvCompletion(WorkCompletion wc, long wrId, WrOpcode op, int size, Endpoint receiver) {
        assertCompletion(wc, wrId, WcStatus.SUCCESS);
        assertThat(wc.opcode).as("opcode of %s", wc).isEqualTo(WcOpcode.RECV);
        assertThat(Integer.toUnsignedLong(wc.byteLen)).as("byte_len of %s", wc).isEqualTo(size);
        assertThat(wc.qpNum).as("qp_num of %s", wc).isEqualTo(receiver.qp.qpNum());
        assertThat(wc.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", wc)
                .isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
        if (op.hasImmediate()) {
            assertThat(wc.immData).as("imm_data of %s", wc).isEqualTo(IMM);
        }
        if (isRoce()) {
            // rxe sets IBV_WC_GRH on every receive completion (ROCEV2-FACTS §3.7).
            assertThat(wc.wcFlags & WcFlags.GRH).as("GRH flag of %s", wc).isEqualTo(WcFlags.GRH);
        }
        // src_qp is not checked: rxe fills it only from a DETH (UD), hardware reports the RC peer.
    }

    private static MemorySegment slot(MemoryRegion mr, long message, int ring, int size) {
        return mr.segment().asSlice((message % ring) * size, size);
    }

    private static void postSlot(Endpoint b, long message, int ring, int size) {
        b.qp.postRecv(new RecvWorkRequest().wrId(message).sg(Sge.of(b.recvMr, (message % ring) * size, size)));
    }
}
