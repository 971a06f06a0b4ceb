package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import org.jrdma.verbs.Mtu;
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

/** RDMA WRITE, WRITE_WITH_IMM, READ and atomics on the soft provider's RC transport. */
class RdmaOpsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private static RcPair pair(Mtu mtu, int bytes) {
        return new RcPair(FreshDevices.fresh("rdma"), mtu, 14, 7, 7, 12, bytes, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 4);
    }

    @Test
    void writeLandsAtTheRemoteAddressByteForByte() {
        try (RcPair p = pair(Mtu.MTU_1024, 1 << 20)) {
            p.fill(p.bufA, 11);
            int len = 300_007;
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, len)).rdma(p.mrB.addr() + 100, p.mrB.rkey()));
            WorkCompletion wc = RcPair.poll(p.cqA, 1, DEADLINE).getFirst();
            assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc.opcode).isEqualTo(WcOpcode.RDMA_WRITE);
            assertThat(p.bufB.asSlice(100, len).mismatch(p.bufA.asSlice(0, len))).isEqualTo(-1);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 99)).isZero();
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 100 + len)).isZero();
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofMillis(50))).as("a plain WRITE consumes no receive").isEmpty();
        }
    }

    @Test
    void writeWithImmediateConsumesAReceive() {
        try (RcPair p = pair(Mtu.MTU_256, 1 << 16)) {
            p.fill(p.bufA, 12);
            p.postRecv(77, 0, 16);
            p.a.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).imm(0xCAFE).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 1000)).rdma(p.mrB.addr() + 4096, p.mrB.rkey()));
            WorkCompletion recv = RcPair.poll(p.cqB, 1, DEADLINE).getFirst();
            assertThat(recv.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.opcode).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
            assertThat(recv.wrId).isEqualTo(77);
            assertThat(recv.byteLen).isEqualTo(1000);
            assertThat(recv.immData).isEqualTo(0xCAFE);
            assertThat(recv.wcFlags & WcFlags.WITH_IMM).isNotZero();
            assertThat(p.bufB.asSlice(4096, 1000).mismatch(p.bufA.asSlice(0, 1000))).isEqualTo(-1);
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
        }
    }

    @Test
    void readBringsRemoteBytesInManyResponsePackets() {
        try (RcPair p = pair(Mtu.MTU_512, 1 << 20)) {
            p.fill(p.bufB, 13);
            int len = 200_001;
            p.a.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 8, len)).rdma(p.mrB.addr() + 1000, p.mrB.rkey()));
            WorkCompletion wc = RcPair.poll(p.cqA, 1, DEADLINE).getFirst();
            assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc.opcode).isEqualTo(WcOpcode.RDMA_READ);
            assertThat(wc.byteLen).isEqualTo(len);
            assertThat(p.bufA.asSlice(8, len).mismatch(p.bufB.asSlice(1000, len))).isEqualTo(-1);
        }
    }

    @Test
    void atomicsReturnTheOriginalValueAndCountExactly() {
        try (RcPair p = pair(Mtu.MTU_1024, 4096)) {
            p.bufB.set(ValueLayout.JAVA_LONG, 64, 1000L);
            for (int i = 0; i < 50; i++) {
                p.a.postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, 8L * i, 8)).atomic(p.mrB.addr() + 64, p.mrB.rkey(), 3, 0));
            }
            List<WorkCompletion> wcs = RcPair.poll(p.cqA, 50, DEADLINE);
            assertThat(wcs).hasSize(50).allSatisfy(wc -> {
                assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.opcode).isEqualTo(WcOpcode.FETCH_ADD);
            });
            assertThat(p.bufB.get(ValueLayout.JAVA_LONG, 64)).isEqualTo(1150L);
            for (int i = 0; i < 50; i++) {
                assertThat(p.bufA.get(ValueLayout.JAVA_LONG, 8L * i)).isEqualTo(1000L + 3L * i);
            }
            // CMP_AND_SWP: succeeds when the value matches, not otherwise; both return the original.
            p.a.postSend(new SendWorkRequest().wrId(100).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 1000, 8)).atomic(p.mrB.addr() + 64, p.mrB.rkey(), 1150, 7));
            p.a.postSend(new SendWorkRequest().wrId(101).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 1008, 8)).atomic(p.mrB.addr() + 64, p.mrB.rkey(), 1150, 9));
            assertThat(RcPair.poll(p.cqA, 2, DEADLINE)).extracting(wc -> wc.status).containsOnly(WcStatus.SUCCESS);
            assertThat(p.bufA.get(ValueLayout.JAVA_LONG, 1000)).isEqualTo(1150L);
            assertThat(p.bufA.get(ValueLayout.JAVA_LONG, 1008)).isEqualTo(7L);
            assertThat(p.bufB.get(ValueLayout.JAVA_LONG, 64)).isEqualTo(7L);
        }
    }

    @Test
    void aBadRkeyFailsAtOnceWithRemoteAccessErrorAndTouchesNothing() {
        try (RcPair p = new RcPair(FreshDevices.fresh("rdma"), Mtu.MTU_1024, 20, 7, 7, 12, 4096, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 1)) {
            p.fill(p.bufA, 14);
            long t0 = System.nanoTime();
            p.a.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_WRITE) // unsignaled: still an error CQE
                    .sg(Sge.of(p.mrA, 0, 100)).rdma(p.mrB.addr(), p.mrB.rkey() ^ 0x100));
            WorkCompletion wc = RcPair.poll(p.cqA, 1, DEADLINE).getFirst();
            long elapsed = System.nanoTime() - t0;
            assertThat(wc.status).isEqualTo(WcStatus.REM_ACCESS_ERR);
            // REL-16: a NAK, not the retry budget (timeout 20 ≈ 4.3 s per try).
            assertThat(elapsed).isLessThan(Duration.ofSeconds(2).toNanos());
            assertThat(p.bufB.asSlice(0, 100).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
            RcPair.await(() -> p.b.state() == QpState.ERR, DEADLINE, "the responder QP in ERR (class C)");
            assertThat(p.a.state()).isEqualTo(QpState.ERR);
        }
    }
}
