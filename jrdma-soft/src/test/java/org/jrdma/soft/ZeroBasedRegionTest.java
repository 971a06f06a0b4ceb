package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * SEC-06 (RELIABILITY-SECURITY §6.1, ReDMArk V4): a region registered ZERO_BASED
 * (ibv_reg_mr.3 IBV_ACCESS_ZERO_BASED) is named remotely by offsets 0..length, so what an
 * application exports — rkey, offset, length — holds no native address from which neighbouring
 * allocations could be guessed. The native address is then refused like any address outside.
 */
class ZeroBasedRegionTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int LEN = 8192;

    @Test
    void sec06ZeroBasedRegionIsReachedByOffsetAndNotByItsNativeAddress() {
        try (RcPair p = new RcPair(FreshDevices.fresh("zb"), Mtu.MTU_1024, 14, 7, 7, 12, LEN, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 4)) {
            MemoryRegion zb = p.pd.registerMemory(p.bufB, RcPair.REMOTE_ALL | AccessFlags.ZERO_BASED);
            // What would cross the OOB channel: (rkey, offset 0, length) — no address in it.
            long exportedVa = 0;
            p.fill(p.bufA, 6);
            assertThat(op(p, WrOpcode.RDMA_WRITE, 0, 3000, exportedVa + 100, zb.rkey())).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.bufB.asSlice(100, 3000).mismatch(p.bufA.asSlice(0, 3000))).as("the WRITE at offset 100").isEqualTo(-1);
            assertThat(op(p, WrOpcode.RDMA_READ, 4096, 3000, exportedVa + 100, zb.rkey())).isEqualTo(WcStatus.SUCCESS);
            assertThat(p.bufA.asSlice(4096, 3000).mismatch(p.bufA.asSlice(0, 3000))).as("the READ at offset 100").isEqualTo(-1);
            // The last byte is reachable; one past it is not; the native address is just out of range.
            assertThat(op(p, WrOpcode.RDMA_READ, 0, 1, LEN - 1, zb.rkey())).isEqualTo(WcStatus.SUCCESS);
            byte before = p.bufB.get(ValueLayout.JAVA_BYTE, 0);
            assertThat(op(p, WrOpcode.RDMA_WRITE, 0, 64, zb.addr(), zb.rkey())).as("the native address")
                    .isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.bufB.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo(before);
        }
    }

    @Test
    void sec06OffsetsPastTheEndOfAZeroBasedRegionAreRefused() {
        try (RcPair p = new RcPair(FreshDevices.fresh("zb_end"), Mtu.MTU_1024, 14, 7, 7, 12, LEN, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 4)) {
            MemoryRegion zb = p.pd.registerMemory(p.bufB.asSlice(0, 4096), RcPair.REMOTE_ALL | AccessFlags.ZERO_BASED);
            assertThat(op(p, WrOpcode.RDMA_READ, 0, 64, 4096 - 32, zb.rkey())).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    private static WcStatus op(RcPair p, WrOpcode op, long localOffset, int len, long va, int rkey) {
        p.a.postSend(new SendWorkRequest().wrId(1).opcode(op).flags(SendFlags.SIGNALED)
                .sg(Sge.of(p.mrA, localOffset, len)).rdma(va, rkey));
        return RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status;
    }
}
