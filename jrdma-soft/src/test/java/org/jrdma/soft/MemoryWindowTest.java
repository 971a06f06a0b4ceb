package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/** Memory windows (RELIABILITY-SECURITY §1.7, SEC-44): access through a window, and its revocation. */
class MemoryWindowTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final int MR_ACCESS = RcPair.REMOTE_ALL | AccessFlags.MW_BIND;

    private static RcPair pair() {
        return new RcPair(FreshDevices.fresh("mw"), Mtu.MTU_1024, 14, 7, 7, 12, 8192, MR_ACCESS, RcPair.REMOTE_ALL, 1);
    }

    /** A's WRITE of 16 bytes to B at {@code offset} under {@code rkey}; returns A's completion status. */
    private static WcStatus write(RcPair p, int rkey, long offset) {
        p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                .sg(Sge.of(p.mrA, 0, 16)).rdma(p.mrB.addr() + offset, rkey));
        return RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status;
    }

    @Test
    void aType1WindowAllowsOnlyItsRangeAndRebindingRetiresTheOldKey() {
        try (RcPair p = pair()) {
            MemoryWindow mw = p.pd.allocMw(MwType.TYPE_1);
            int key1 = p.b.bindMw(mw, new MwBind(p.mrB, p.mrB.addr() + 1024, 1024, AccessFlags.REMOTE_WRITE), 50, true);
            WorkCompletion bound = RcPair.poll(p.cqB, 1, DEADLINE).getFirst();
            assertThat(bound.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(bound.opcode).isEqualTo(WcOpcode.BIND_MW);
            assertThat(mw.rkey()).isEqualTo(key1);
            assertThat(key1 & 0xFFFFFF00).isNotEqualTo(p.mrB.rkey() & 0xFFFFFF00);
            assertThat(write(p, key1, 1024)).isEqualTo(WcStatus.SUCCESS);
            assertThat(write(p, key1, 2032)).as("the last 16 bytes of the window").isEqualTo(WcStatus.SUCCESS);

            int key2 = p.b.bindMw(mw, new MwBind(p.mrB, p.mrB.addr(), 512, AccessFlags.REMOTE_WRITE), 51, false);
            assertThat(key2).isNotEqualTo(key1);
            assertThat(key2 & 0xFFFFFF00).isEqualTo(key1 & 0xFFFFFF00); // only the key byte changes (ibv_inc_rkey)
            RcPair.await(() -> mw.rkey() == key2, DEADLINE, "the rebind to take effect");
            assertThat(write(p, key2, 0)).isEqualTo(WcStatus.SUCCESS);
            assertThat(write(p, key1, 1024)).as("the old key after a rebind").isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void outsideTheWindowIsARemoteAccessError() {
        try (RcPair p = pair()) {
            MemoryWindow mw = p.pd.allocMw(MwType.TYPE_1);
            int key = p.b.bindMw(mw, new MwBind(p.mrB, p.mrB.addr() + 1024, 1024, AccessFlags.REMOTE_WRITE), 50, true);
            RcPair.poll(p.cqB, 1, DEADLINE);
            assertThat(write(p, key, 2041)).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void aType2WindowIsRevokedByLocalInvalidate() {
        try (RcPair p = pair()) {
            MemoryWindow mw = p.pd.allocMw(MwType.TYPE_2);
            SendWorkRequest bind = new SendWorkRequest().wrId(60).opcode(WrOpcode.BIND_MW).flags(SendFlags.SIGNALED);
            bind.mw = mw;
            bind.bind = new MwBind(p.mrB, p.mrB.addr(), 4096, AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
            p.b.postSend(bind);
            int key = bind.rkey;
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
            assertThat(write(p, key, 100)).isEqualTo(WcStatus.SUCCESS);

            SendWorkRequest inv = new SendWorkRequest().wrId(61).opcode(WrOpcode.LOCAL_INV).flags(SendFlags.SIGNALED);
            inv.invalidateRkey = key;
            p.b.postSend(inv);
            WorkCompletion done = RcPair.poll(p.cqB, 1, DEADLINE).getFirst();
            assertThat(done.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(done.opcode).isEqualTo(WcOpcode.LOCAL_INV);
            assertThat(write(p, key, 100)).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void sendWithInvalidateRevokesThePeersWindow() {
        try (RcPair p = pair()) {
            MemoryWindow mw = p.pd.allocMw(MwType.TYPE_2);
            SendWorkRequest bind = new SendWorkRequest().wrId(60).opcode(WrOpcode.BIND_MW).flags(SendFlags.SIGNALED);
            bind.mw = mw;
            bind.bind = new MwBind(p.mrB, p.mrB.addr(), 4096, AccessFlags.REMOTE_WRITE);
            p.b.postSend(bind);
            int key = bind.rkey;
            RcPair.poll(p.cqB, 1, DEADLINE);
            p.postRecv(7, 6000, 100);
            SendWorkRequest send = new SendWorkRequest().wrId(8).opcode(WrOpcode.SEND_WITH_INV).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 10));
            send.invalidateRkey = key;
            p.a.postSend(send);
            WorkCompletion recv = RcPair.poll(p.cqB, 1, DEADLINE).getFirst();
            assertThat(recv.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(recv.wcFlags & WcFlags.WITH_INV).isNotZero();
            assertThat(recv.immData).as("the invalidated rkey").isEqualTo(key);
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);
            assertThat(write(p, key, 0)).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }

    @Test
    void aDeallocatedWindowsKeyStopsWorking() {
        try (RcPair p = pair()) {
            MemoryWindow mw = p.pd.allocMw(MwType.TYPE_1);
            int key = p.b.bindMw(mw, new MwBind(p.mrB, p.mrB.addr(), 4096, AccessFlags.REMOTE_WRITE), 50, true);
            RcPair.poll(p.cqB, 1, DEADLINE);
            mw.close();
            assertThat(write(p, key, 0)).isEqualTo(WcStatus.REM_ACCESS_ERR);
        }
    }
}
