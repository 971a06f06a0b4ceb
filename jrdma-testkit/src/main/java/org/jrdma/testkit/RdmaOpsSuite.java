package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
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

/**
 * Every data-moving RC opcode — SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM and
 * RDMA_READ — at each segmentation edge (REL-24: 0, 1, MTU−1, MTU, MTU+1, a few MTUs, 1 MiB,
 * and 8 MiB = rxe's max_msg_sz at two MTUs) on every path MTU the port reaches: byte-exact
 * where the data lands, the canaries before and after the target range intact, and the
 * completions on both sides as ROCEV2-FACTS §3.7 describes them (WRITE_WITH_IMM consumes a
 * receive and completes it as RECV_RDMA_WITH_IMM with byte_len = the write's length).
 */
public abstract class RdmaOpsSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public RdmaOpsSuite() {
    }

    private static final long SEED = 0xD47A;
    private static final List<WrOpcode> OPCODES = List.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM,
            WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.RDMA_READ);

    static Stream<Arguments> transfers() {
        Stream<Arguments> edges = Stream.of(Mtu.MTU_256, Mtu.MTU_1024, Mtu.MTU_2048, Mtu.MTU_4096).flatMap(mtu -> {
            int m = mtu.bytes();
            return Stream.of(0, 1, m - 1, m, m + 1, 3 * m + 7, MIB)
                    .flatMap(size -> OPCODES.stream().map(op -> Arguments.of(mtu, size, op)));
        });
        Stream<Arguments> largest = Stream.of(Mtu.MTU_1024, Mtu.MTU_4096)
                .flatMap(mtu -> OPCODES.stream().map(op -> Arguments.of(mtu, 8 * MIB, op)));
        return Stream.concat(edges, largest);
    }

    /**
     * SEND and WRITE go from A's send buffer to B's receive buffer, READ from B's send buffer to
     * A's receive buffer; the source is seeded data throughout, the target canary throughout,
     * and the transfer starts {@link #GUARD} bytes in, so a byte too many on either side shows.
     */
    @ParameterizedTest(name = "{2} of {1} bytes at {0}")
    @MethodSource("transfers")
    void transferLandsByteForByteBetweenIntactCanariesWithTheRightCompletions(Mtu mtu, int size, WrOpcode op) {
        assumeOpcode(op);
        assumeMtu(mtu);
        long maxMsg = context.queryDevice().maxMsgSize();
        assumeTrue(size <= maxMsg, () -> "the device's max_msg_sz is " + maxMsg);
        Loopback lb = loopback(Options.defaults().withMtu(mtu).withBufferBytes(size + 2 * GUARD));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        boolean read = op == WrOpcode.RDMA_READ;
        MemoryRegion source = read ? b.sendMr : a.sendMr;
        MemoryRegion target = read ? a.recvMr : b.recvMr;
        Payload.fill(source.segment(), SEED + size);
        target.segment().fill(CANARY);
        if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
            b.sendMr.segment().fill(CANARY);
        }

        boolean consumesReceive = op != WrOpcode.RDMA_WRITE && op != WrOpcode.RDMA_READ;
        if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
            // The receive WR is consumed but nothing is scattered into it: its buffer stays canary.
            b.qp.postRecv(recv(0xB0B, Sge.of(b.sendMr, 0, GUARD)));
        } else if (consumesReceive) {
            b.qp.postRecv(recv(0xB0B, Sge.of(b.recvMr, GUARD, size + GUARD)));
        }
        MemoryRegion remote = read ? source : target; // the READ's remote side is B's source
        SendWorkRequest wr = new SendWorkRequest().wrId(0xA11CE).opcode(op).flags(SendFlags.SIGNALED).imm(IMM)
                .rdma(remote.addr() + GUARD, remote.rkey());
        if (size > 0) {
            wr.sg(Sge.of(read ? a.recvMr : a.sendMr, GUARD, size)); // a zero-length WR has no SGE at all
        }
        a.qp.postSend(wr);

        WorkCompletion s = awaitCompletion(a.sendCq, op + " of " + size + " bytes");
        assertWc(s, 0xA11CE, WcStatus.SUCCESS, a.qp);
        assertThat(s.opcode).as("opcode of %s", s).isEqualTo(op.completionOpcode());
        assertThat(s.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", s).isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
        if (fx.supports(Feature.SEND_COMPLETION_BYTE_LEN)) {
            assertThat(Integer.toUnsignedLong(s.byteLen)).as("byte_len of %s", s).isEqualTo(size);
        }
        if (consumesReceive) {
            WorkCompletion r = awaitCompletion(b.recvCq, "the receive " + op + " consumed");
            assertWc(r, 0xB0B, WcStatus.SUCCESS, b.qp);
            assertThat(r.opcode).as("opcode of %s", r)
                    .isEqualTo(op == WrOpcode.RDMA_WRITE_WITH_IMM ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV);
            assertThat(Integer.toUnsignedLong(r.byteLen)).as("byte_len of %s", r).isEqualTo(size);
            assertThat(r.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", r).isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
            if (op.hasImmediate()) {
                assertThat(r.immData).as("imm_data of %s", r).isEqualTo(IMM);
            }
            if (isRoce()) {
                assertThat(r.wcFlags & WcFlags.GRH).as("GRH flag of %s", r).isEqualTo(WcFlags.GRH);
            }
        } else {
            assertEmptyNow(b.recvCq, "B's receive CQ: " + op + " consumes no receive");
        }
        MemorySegment landed = target.segment();
        Payload.assertSameBytes(landed.asSlice(GUARD, size), source.segment().asSlice(GUARD, size), op + " data");
        Payload.assertFilledWith(landed.asSlice(0, GUARD), CANARY, "canary before the target range");
        Payload.assertFilledWith(landed.asSlice(GUARD + size), CANARY, "canary after the target range");
        if (op == WrOpcode.RDMA_WRITE_WITH_IMM) {
            Payload.assertFilledWith(b.sendMr.segment().asSlice(0, GUARD), CANARY, "the WRITE_WITH_IMM's receive buffer");
        }
        assertState(a.qp, QpState.RTS, "A");
        assertState(b.qp, QpState.RTS, "B");
    }

    /** A three-SGE gather lands contiguously at the remote address (1000 bytes at MTU 256: 4 packets). */
    @Test
    void writeGathersThreeSgesIntoOneContiguousRemoteRange() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        assumeMtu(Mtu.MTU_256);
        assumeTrue(context.queryDevice().maxSge() >= 3, "the device allows 3 SGEs per WR");
        Loopback lb = loopback(Options.defaults().withMtu(Mtu.MTU_256).withBufferBytes(8192)
                .withCap(new QpCap(16, 16, 3, 3, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        MemorySegment out = a.sendMr.segment();
        Payload.fill(out, SEED);
        b.recvMr.segment().fill(CANARY);
        a.qp.postSend(write(1, SendFlags.SIGNALED, null, b.recvMr.addr() + GUARD, b.recvMr.rkey())
                .sg(Sge.of(a.sendMr, 0, 300), Sge.of(a.sendMr, 2000, 500), Sge.of(a.sendMr, 5000, 200)));
        assertWc(awaitCompletion(a.sendCq, "the gathered WRITE"), 1, WcStatus.SUCCESS, a.qp);
        MemorySegment sent = Payload.concat(out.asSlice(0, 300), out.asSlice(2000, 500), out.asSlice(5000, 200));
        MemorySegment in = b.recvMr.segment();
        Payload.assertSameBytes(in.asSlice(GUARD, 1000), sent, "gathered WRITE");
        Payload.assertFilledWith(in.asSlice(0, GUARD), CANARY, "canary before the target range");
        Payload.assertFilledWith(in.asSlice(GUARD + 1000), CANARY, "canary after the target range");
    }

    /** A READ response scatters over two local SGEs, leaving the gap between them alone. */
    @Test
    void readScattersIntoTwoSgesLeavingTheGapAlone() {
        assumeOpcode(WrOpcode.RDMA_READ);
        assumeMtu(Mtu.MTU_256);
        assumeTrue(context.queryDevice().maxSge() >= 2, "the device allows 2 SGEs per WR");
        Loopback lb = loopback(Options.defaults().withMtu(Mtu.MTU_256).withBufferBytes(8192)
                .withCap(new QpCap(16, 16, 2, 2, 0)));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        MemorySegment remote = b.sendMr.segment();
        Payload.fill(remote, SEED + 1);
        MemorySegment in = a.recvMr.segment();
        in.fill(CANARY);
        a.qp.postSend(read(2, SendFlags.SIGNALED, null, b.sendMr.addr() + 100, b.sendMr.rkey())
                .sg(Sge.of(a.recvMr, 0, 700), Sge.of(a.recvMr, 1000, 300)));
        assertWc(awaitCompletion(a.sendCq, "the scattering READ"), 2, WcStatus.SUCCESS, a.qp);
        Payload.assertSameBytes(Payload.concat(in.asSlice(0, 700), in.asSlice(1000, 300)), remote.asSlice(100, 1000),
                "scattered READ");
        Payload.assertFilledWith(in.asSlice(700, 300), CANARY, "gap between the two SGEs");
        Payload.assertFilledWith(in.asSlice(1300), CANARY, "past the second SGE");
    }

    /**
     * Back-to-back WRITEs, READs and SENDs on one QP complete in post order, each byte-exact:
     * RC executes and completes in order (IBA 9.5; rxe's completer pops the SQ head only).
     */
    @Test
    void mixedOpcodesOnOneQpCompleteInPostOrder() {
        assumeOpcode(WrOpcode.RDMA_WRITE);
        assumeOpcode(WrOpcode.RDMA_READ);
        Loopback lb = loopback(Options.defaults().withBufferBytes(64 * 1024));
        Endpoint a = lb.a();
        Endpoint b = lb.b();
        Payload.fill(a.sendMr.segment(), SEED + 2);
        Payload.fill(b.sendMr.segment(), SEED + 3);
        a.recvMr.segment().fill(CANARY);
        b.recvMr.segment().fill(CANARY);
        int chunk = 3000;
        List<WrOpcode> ops = List.of(WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ, WrOpcode.SEND, WrOpcode.RDMA_READ,
                WrOpcode.RDMA_WRITE, WrOpcode.SEND, WrOpcode.RDMA_WRITE, WrOpcode.RDMA_READ);
        for (int i = 0; i < ops.size(); i++) {
            long off = (long) i * chunk;
            SendWorkRequest wr = switch (ops.get(i)) {
                case RDMA_READ -> read(i, SendFlags.SIGNALED, Sge.of(a.recvMr, off, chunk), b.sendMr.addr() + off,
                        b.sendMr.rkey());
                case RDMA_WRITE -> write(i, SendFlags.SIGNALED, Sge.of(a.sendMr, off, chunk), b.recvMr.addr() + off,
                        b.recvMr.rkey());
                default -> {
                    b.qp.postRecv(recv(i, Sge.of(b.recvMr, off, chunk)));
                    yield send(i, SendFlags.SIGNALED, Sge.of(a.sendMr, off, chunk));
                }
            };
            a.qp.postSend(wr);
        }
        List<WorkCompletion> wcs = awaitCompletions(a.sendCq, ops.size(), "eight mixed WRs");
        for (int i = 0; i < ops.size(); i++) {
            assertWc(wcs.get(i), i, WcStatus.SUCCESS, a.qp);
            assertThat(wcs.get(i).opcode).as("opcode of completion %d", i).isEqualTo(ops.get(i).completionOpcode());
            long off = (long) i * chunk;
            if (ops.get(i) == WrOpcode.RDMA_READ) {
                Payload.assertSameBytes(a.recvMr.segment().asSlice(off, chunk), b.sendMr.segment().asSlice(off, chunk),
                        "READ " + i);
            } else {
                Payload.assertSameBytes(b.recvMr.segment().asSlice(off, chunk), a.sendMr.segment().asSlice(off, chunk),
                        ops.get(i) + " " + i);
            }
        }
        awaitCompletions(b.recvCq, 2, "the two SENDs' receives");
    }
}
