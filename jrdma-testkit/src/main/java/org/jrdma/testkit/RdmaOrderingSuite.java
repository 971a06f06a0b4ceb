package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the send flags and the READ/atomic depth promise about ordering: FENCE holds a WR until
 * the READs before it have completed (ROCEV2-FACTS §4.1 step 3), more READs than max_rd_atomic
 * are queued by the requester and complete in order (§4.1 step 4), INLINE copies the data at
 * post time, and SOLICITED on a WRITE_WITH_IMM fires a solicited-only arm (§4.1 step 6: SE on
 * the last packet of a SEND or WRITE_WITH_IMM).
 */
public abstract class RdmaOrderingSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public RdmaOrderingSuite() {
    }

    private static final long SEED = 0xF3_4CE;

    // ---- FENCE ----------------------------------------------------------------------------------

    /**
     * Four READs fill A's buffer from B, then a fenced WR sends that buffer back to another place
     * at B. Without the fence the provider may gather before the READ responses have landed and
     * send stale canary bytes: the data dependency makes the ordering visible. Ten rounds with
     * fresh data, 64 KiB at MTU 1024 (64 response packets per round). RELIABILITY-SECURITY REL-28
     * (the siw fence bug): the four READs fill max_rd_atomic (4), and the fenced WR must wait for
     * all of them, not just the first.
     */
    @ParameterizedTest(name = "fenced {0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "SEND"})
    void fencedWrAfterReadsCarriesWhatTheReadsBrought(WrOpcode fenced) {
        assumeOpcode(WrOpcode.RDMA_READ);
        assumeOpcode(fenced);
        final int bytes = 64 * 1024;
        final int reads = 4;
        Loopback lb = loopback(Options.defaults().withMtu(Mtu.MTU_1024.min(activeMtu())).withBufferBytes(bytes)
                .withRdAtomic(reads, reads));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        for (int round = 0; round < 10; round++) {
            Payload.fill(b.sendMr.segment(), SEED + round);
            a.recvMr.segment().fill(CANARY);
            b.recvMr.segment().fill(CANARY);
            int part = bytes / reads;
            for (int i = 0; i < reads; i++) {
                a.qp.postSend(read(i, SendFlags.SIGNALED, Sge.of(a.recvMr, (long) i * part, part),
                        b.sendMr.addr() + (long) i * part, b.sendMr.rkey()));
            }
            int flags = SendFlags.SIGNALED | SendFlags.FENCE;
            if (fenced == WrOpcode.SEND) {
                b.qp.postRecv(recv(100 + round, Sge.of(b.recvMr)));
                a.qp.postSend(send(reads, flags, Sge.of(a.recvMr, 0, bytes)));
            } else {
                a.qp.postSend(write(reads, flags, Sge.of(a.recvMr, 0, bytes), b.recvMr.addr(), b.recvMr.rkey()));
            }
            List<WorkCompletion> wcs = awaitCompletions(a.sendCq, reads + 1, "round " + round + ": READs, fenced WR");
            for (int i = 0; i <= reads; i++) {
                assertWc(wcs.get(i), i, WcStatus.SUCCESS, a.qp);
            }
            if (fenced == WrOpcode.SEND) {
                assertWc(awaitCompletion(b.recvCq, "the fenced SEND's receive"), 100 + round, WcStatus.SUCCESS, b.qp);
            }
            Payload.assertSameBytes(b.recvMr.segment(), b.sendMr.segment(), "round " + round
                    + ": what the fenced " + fenced + " carried (canary bytes mean it gathered before the READs landed)");
        }
    }

    // ---- max_rd_atomic --------------------------------------------------------------------------

    /**
     * 32 READs with an initiator depth of 1 or 4: the requester holds back what exceeds
     * max_rd_atomic instead of failing or overrunning the responder, and all complete in order.
     */
    @ParameterizedTest(name = "max_rd_atomic {0}")
    @ValueSource(ints = {1, 4})
    void moreReadsThanMaxRdAtomicAllCompleteInOrder(int depth) {
        assumeOpcode(WrOpcode.RDMA_READ);
        final int reads = 32;
        final int size = 2000;
        Loopback lb = loopback(Options.defaults().withRdAtomic(depth, depth).withBufferBytes(reads * size)
                .withCap(new QpCap(reads, 16, 1, 1, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        assertThat(a.qp.query().maxRdAtomic()).as("granted max_rd_atomic").isGreaterThanOrEqualTo(depth);
        Payload.fill(b.sendMr.segment(), SEED + depth);
        a.recvMr.segment().fill(CANARY);
        for (int i = 0; i < reads; i++) {
            a.qp.postSend(read(i, i % 3 == 2 ? 0 : SendFlags.SIGNALED, Sge.of(a.recvMr, (long) i * size, size),
                    b.sendMr.addr() + (long) i * size, b.sendMr.rkey()));
        }
        int signaled = reads - reads / 3;
        List<WorkCompletion> wcs = awaitCompletions(a.sendCq, signaled, reads + " READs, every third unsignaled");
        int k = 0;
        for (int i = 0; i < reads; i++) {
            if (i % 3 != 2) {
                assertWc(wcs.get(k), i, WcStatus.SUCCESS, a.qp);
                assertThat(wcs.get(k++).opcode).isEqualTo(WcOpcode.RDMA_READ);
            }
        }
        Payload.assertSameBytes(a.recvMr.segment(), b.sendMr.segment(), reads + " READs");
        assertNoCompletion(a.sendCq, "A's send CQ after the READs");
    }

    // ---- INLINE ---------------------------------------------------------------------------------

    /**
     * ibv_post_send.3: with INLINE the data is copied at post time, so the buffer may be reused
     * as soon as the call returns. The source is overwritten right after each post and the peer
     * must still see what was there at post.
     */
    @ParameterizedTest(name = "inline {0}")
    @EnumSource(value = WrOpcode.class, names = {"SEND", "RDMA_WRITE"})
    void inlineDataIsTakenAtPostTimeUpToMaxInlineData(WrOpcode op) {
        assumeSupported(Feature.INLINE);
        assumeOpcode(op);
        int asked = context.queryDevice().maxInlineData();
        assumeTrue(asked > 0, "the device offers inline data");
        Loopback lb = loopback(Options.defaults().withCap(new QpCap(16, 16, 1, 1, asked)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        int granted = a.qp.query().cap().maxInlineData();
        assertThat(granted).as("granted max_inline_data").isGreaterThanOrEqualTo(asked);
        int[] sizes = {1, granted / 2, granted};
        for (int i = 0; i < sizes.length; i++) {
            int size = sizes[i];
            MemorySegment src = a.sendMr.segment().asSlice(0, size);
            Payload.fill(src, SEED + size);
            MemorySegment expected = MemorySegment.ofArray(src.toArray(ValueLayout.JAVA_BYTE));
            b.recvMr.segment().fill(CANARY);
            if (op == WrOpcode.SEND) {
                b.qp.postRecv(recv(i, Sge.of(b.recvMr, 0, granted)));
            }
            SendWorkRequest wr = new SendWorkRequest().wrId(i).opcode(op).flags(SendFlags.SIGNALED | SendFlags.INLINE)
                    .sg(Sge.of(a.sendMr, 0, size)).rdma(b.recvMr.addr(), b.recvMr.rkey());
            a.qp.postSend(wr);
            src.fill((byte) 0x5A); // the post has returned: the buffer is the caller's again
            assertWc(awaitCompletion(a.sendCq, "inline " + op + " of " + size + " bytes"), i, WcStatus.SUCCESS, a.qp);
            if (op == WrOpcode.SEND) {
                WorkCompletion r = awaitCompletion(b.recvCq, "the inline SEND's receive");
                assertWc(r, i, WcStatus.SUCCESS, b.qp);
                assertThat(r.byteLen).isEqualTo(size);
            }
            Payload.assertSameBytes(b.recvMr.segment().asSlice(0, size), expected, "inline " + op + " of " + size);
            Payload.assertFilledWith(b.recvMr.segment().asSlice(size), CANARY, "past the inline data");
        }
    }

    /**
     * ibv_post_send.3: for an inline WR "the lkey won't be checked". The data sits in registered
     * memory (so a provider may find it by address) but the SGE names lkey 0.
     */
    @Test
    void inlineSendDoesNotCheckTheLkey() {
        assumeSupported(Feature.INLINE);
        int n = Math.min(64, context.queryDevice().maxInlineData());
        assumeTrue(n > 0, "the device offers inline data");
        Loopback lb = loopback(Options.defaults().withCap(new QpCap(16, 16, 1, 1, n)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        Payload.fill(a.sendMr.segment().asSlice(0, n), SEED);
        b.qp.postRecv(recv(1, Sge.of(b.recvMr, 0, n)));
        a.qp.postSend(send(2, SendFlags.SIGNALED | SendFlags.INLINE, new Sge(a.sendMr.addr(), n, 0)));
        assertWc(awaitCompletion(a.sendCq, "the inline SEND with lkey 0"), 2, WcStatus.SUCCESS, a.qp);
        assertWc(awaitCompletion(b.recvCq, "its receive"), 1, WcStatus.SUCCESS, b.qp);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(0, n), a.sendMr.segment().asSlice(0, n), "inline SEND");
    }

    /** rxe validate_send_wr: an inline WR longer than the QP's max_inline_data fails at post. */
    @Test
    void inlineLongerThanMaxInlineDataIsRefusedWithEinval() {
        assumeSupported(Feature.INLINE);
        Loopback lb = loopback(Options.defaults());
        Endpoint a = lb.a();
        int granted = a.qp.query().cap().maxInlineData();
        assertFails(Errno.EINVAL, () -> a.qp.postSend(send(1, SendFlags.SIGNALED | SendFlags.INLINE,
                Sge.of(a.sendMr, 0, granted + 1))));
        assertNoCompletion(a.sendCq, "A's send CQ after a refused post");
    }

    // ---- SOLICITED ------------------------------------------------------------------------------

    /**
     * CompletionChannelSuite covers SEND; a WRITE_WITH_IMM carries SE on its last packet too, so
     * a solicited-only arm ignores it without SOLICITED and fires with it.
     */
    @Test
    void solicitedWriteWithImmFiresASolicitedOnlyArm() {
        assumeSupported(Feature.SOLICITED);
        assumeOpcode(WrOpcode.RDMA_WRITE_WITH_IMM);
        Loopback lb = loopback(Options.defaults().withCompletionChannel(true));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        b.recvCq.requestNotify(true);
        for (int i = 0; i < 2; i++) {
            boolean solicited = i == 1;
            b.qp.postRecv(recv(i, null));
            a.qp.postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).imm(IMM)
                    .flags(SendFlags.SIGNALED | (solicited ? SendFlags.SOLICITED : 0)).sg(Sge.of(a.sendMr, 0, 100))
                    .rdma(b.recvMr.addr(), b.recvMr.rkey()));
            assertWc(awaitCompletion(a.sendCq, "WRITE_WITH_IMM " + i), i, WcStatus.SUCCESS, a.qp);
            WorkCompletion r = awaitCompletion(b.recvCq, "the receive of WRITE_WITH_IMM " + i);
            assertWc(r, i, WcStatus.SUCCESS, b.qp);
            assertThat(r.opcode).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
            if (solicited) {
                assertThat(b.channel.getEvent(fx.deadline())).isSameAs(b.recvCq);
                b.recvCq.ackEvents(1);
            } else {
                assertFails(Errno.ETIMEDOUT, () -> b.channel.getEvent(fx.settleTime()));
            }
        }
    }

    private Mtu activeMtu() {
        return context.queryPort(fx.port()).activeMtu().min(peerContext().queryPort(fx.port()).activeMtu());
    }
}
