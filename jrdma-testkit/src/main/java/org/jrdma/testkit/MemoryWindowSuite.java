package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwBind;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Memory windows (ibv_alloc_mw.3, ibv_bind_mw.3; RELIABILITY-SECURITY §1.7, SEC-44): B binds a
 * 4 KiB window onto its receive buffer and A writes through the window's rkey. Inside the
 * window the WRITE lands; outside it, without the window's right, or after the window was
 * revoked — rebound (the rkey's low 8 bits change), deallocated, LOCAL_INV, SEND_WITH_INV —
 * the WRITE fails with REM_ACCESS_ERR and changes nothing. A type 2 window is bound to the QP
 * that bound it: the same rkey through another QP of the PD fails.
 *
 * <p>Assumptions to match: a type 2 bind WR carries the window in {@code wr.mw}, the bind in
 * {@code wr.bind} and, as ibv_post_send's {@code bind_mw.rkey}, the new rkey
 * {@code ibv_inc_rkey(old)} in {@code wr.rkey}; once the bind completes {@link MemoryWindow#rkey()}
 * is the window's new rkey. A receive completed by SEND_WITH_INV has WcFlags.WITH_INV and
 * carries the invalidated rkey (ibv_wc's {@code invalidated_rkey}, a union with imm_data) in
 * {@code immData}, in host order.
 */
public abstract class MemoryWindowSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public MemoryWindowSuite() {
    }

    private static final long WINDOW = 4096;
    private static final long WINDOW_BYTES = 4096;
    private static final int RW = AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
    private static final long BIND = 0xB1D;

    private Endpoint a;
    private Endpoint b;

    /** Skips unless the provider has memory windows of a type; connects a pair with bindable MRs. */
    @BeforeEach
    protected final void connectPairWithBindableMemory() {
        assumeTrue(fx.supports(Feature.MEMORY_WINDOW_TYPE_1) || fx.supports(Feature.MEMORY_WINDOW_TYPE_2),
                "provider lacks memory windows of either type");
        Loopback lb = loopback(mwOptions());
        a = lb.a();
        b = lb.b();
        b.recvMr.segment().fill(CANARY);
        Payload.fill(a.sendMr.segment(), 0x33);
    }

    // ---- type 1 ---------------------------------------------------------------------------------

    @Test
    void type1WindowAdmitsAWriteInsideIt() {
        MemoryWindow mw = type1();
        int rkey = bindType1(mw, RW);
        assertWriteLands(rkey, 100, 256);
        assertWriteLands(rkey, WINDOW_BYTES - 64, 64);
    }

    @Test
    void type1WindowRefusesAWriteThatRunsPastItsEnd() {
        assumeSupported(Feature.MW_RANGE_CHECKED);
        int rkey = bindType1(type1(), RW);
        assertWriteRefused(rkey, WINDOW_BYTES - 10, 64, "a WRITE running 54 bytes past the window");
    }

    @Test
    void type1WindowWithoutRemoteWriteRefusesAWrite() {
        int rkey = bindType1(type1(), AccessFlags.REMOTE_READ);
        assertWriteRefused(rkey, 0, 64, "a WRITE through a read-only window");
    }

    /** SEC-44 (type 1): a rebind retires the previous rkey. */
    @Test
    void rebindingAType1WindowChangesItsRkeyAndTheOldOneFails() {
        MemoryWindow mw = type1();
        int old = bindType1(mw, RW);
        int rebound = bindType1(mw, RW);
        assertThat(rebound & 0xFF).as("the key byte after a rebind").isNotEqualTo(old & 0xFF);
        assertThat(rebound >>> 8).as("the index bits after a rebind").isEqualTo(old >>> 8);
        assertWriteLands(rebound, 0, 64);
        assertWriteRefused(old, 0, 64, "a WRITE with the rkey of the previous binding");
    }

    /** SEC-44 (type 1): a deallocated window's rkey fails. */
    @Test
    void deallocatedType1WindowsRkeyFails() {
        MemoryWindow mw = type1();
        int rkey = bindType1(mw, RW);
        assertWriteLands(rkey, 0, 64);
        closeNow(mw);
        assertWriteRefused(rkey, 200, 64, "a WRITE through a deallocated window");
    }

    /** A bind needs an MR registered with MW_BIND: refused at the call or completed MW_BIND_ERR. */
    @Test
    void bindingOntoAnMrWithoutMwBindFails() {
        MemoryWindow mw = type1();
        Guarded plain = guarded(b.pd, 8192, ALL_REMOTE);
        try {
            b.qp.bindMw(mw, new MwBind(plain.mr(), plain.mr().addr(), WINDOW_BYTES, RW), BIND, true);
            WorkCompletion wc = awaitCompletion(b.sendCq, "the bind onto an MR without MW_BIND");
            assertThat(wc.wrId).isEqualTo(BIND);
            assertThat(wc.status).as("status of %s", wc).isEqualTo(WcStatus.MW_BIND_ERR);
        } catch (VerbsException e) {
            assertThat(e.errno()).as("errno of \"%s\"", e.getMessage()).isEqualTo(Errno.EINVAL);
        }
    }

    // ---- type 2 ---------------------------------------------------------------------------------

    @Test
    void type2WindowBoundByAWrAdmitsAWriteInsideItAndRefusesOneOutside() {
        assumeSupported(Feature.MW_RANGE_CHECKED);
        int rkey = bindType2(type2(), RW);
        assertWriteLands(rkey, 0, 512);
        assertWriteRefused(rkey, WINDOW_BYTES, 1, "a WRITE one byte past the window");
    }

    /** SEC-44: LOCAL_INV revokes a type 2 window: its rkey then fails REM_ACCESS_ERR. */
    @Test
    void localInvalidateRevokesAType2Window() {
        int rkey = bindType2(type2(), RW);
        assertWriteLands(rkey, 0, 64);
        SendWorkRequest inv = new SendWorkRequest().wrId(0x1A).opcode(WrOpcode.LOCAL_INV).flags(SendFlags.SIGNALED);
        inv.invalidateRkey = rkey;
        b.qp.postSend(inv);
        WorkCompletion wc = awaitCompletion(b.sendCq, "the LOCAL_INV");
        assertWc(wc, 0x1A, WcStatus.SUCCESS, b.qp);
        assertThat(wc.opcode).isEqualTo(WcOpcode.LOCAL_INV);
        assertWriteRefused(rkey, 0, 64, "a WRITE through a locally invalidated window");
    }

    /** SEC-44: the peer's SEND_WITH_INV revokes the window (WITH_INV, the rkey in the CQE); its rkey then fails. */
    @Test
    void sendWithInvalidateFromThePeerRevokesAType2Window() {
        int rkey = bindType2(type2(), RW);
        assertWriteLands(rkey, 0, 64);
        b.qp.postRecv(recv(0x5E, Sge.of(b.sendMr, 0, 64)));
        SendWorkRequest sendInv = send(0x51, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64));
        sendInv.opcode = WrOpcode.SEND_WITH_INV;
        sendInv.invalidateRkey = rkey;
        a.qp.postSend(sendInv);
        assertWc(awaitCompletion(a.sendCq, "the SEND_WITH_INV"), 0x51, WcStatus.SUCCESS, a.qp);
        WorkCompletion r = awaitCompletion(b.recvCq, "the SEND_WITH_INV's receive");
        assertWc(r, 0x5E, WcStatus.SUCCESS, b.qp);
        assertThat(r.opcode).isEqualTo(WcOpcode.RECV);
        assertThat(r.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", r).isZero();
        if (fx.supports(Feature.WC_WITH_INV_FLAG)) { // rxe 6.1 sets the kernel's bit instead: the revocation is still checked
            assertThat(r.wcFlags & WcFlags.WITH_INV).as("WITH_INV of %s", r).isEqualTo(WcFlags.WITH_INV);
            assertThat(r.immData).as("the invalidated rkey in %s", r).isEqualTo(rkey);
        }
        assertWriteRefused(rkey, 0, 64, "a WRITE through a remotely invalidated window");
    }

    /** SEC-44: a rebind after invalidation changes the key byte; the old rkey fails, the new one works. */
    @Test
    void rebindingAnInvalidatedType2WindowGivesANewWorkingRkey() {
        MemoryWindow mw = type2();
        int first = bindType2(mw, RW);
        SendWorkRequest inv = new SendWorkRequest().wrId(0x1A).opcode(WrOpcode.LOCAL_INV).flags(SendFlags.SIGNALED);
        inv.invalidateRkey = first;
        b.qp.postSend(inv);
        assertWc(awaitCompletion(b.sendCq, "the LOCAL_INV"), 0x1A, WcStatus.SUCCESS, b.qp);
        int second = bindType2(mw, RW);
        assertThat(second).as("the rkey of the new binding").isNotEqualTo(first);
        assertWriteLands(second, 0, 64);
        assertWriteRefused(first, 0, 64, "a WRITE with the invalidated rkey");
    }

    /** SEC-44: a deallocated type 2 window's rkey fails, as after an invalidation. */
    @Test
    void deallocatedType2WindowsRkeyFails() {
        MemoryWindow mw = type2();
        int rkey = bindType2(mw, RW);
        assertWriteLands(rkey, 0, 64);
        closeNow(mw);
        assertWriteRefused(rkey, 0, 64, "a WRITE through a deallocated type 2 window");
    }

    /** SEC-44: only the QP that bound a type 2 window may use it, even within the same PD. */
    @Test
    void type2WindowWorksOnlyThroughTheQpThatBoundIt() {
        int rkey = bindType2(type2(), RW);
        Loopback other = loopback(mwOptions().withSharedPeer(b).withSeed(3));
        Endpoint a2 = other.a();
        a2.qp.postSend(write(2, SendFlags.SIGNALED, Sge.of(a2.sendMr, 0, 64), windowAddr(), rkey));
        assertWc(awaitCompletion(a2.sendCq, "a WRITE through another QP of the window's PD"), 2,
                WcStatus.REM_ACCESS_ERR, a2.qp);
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory");
        assertWriteLands(rkey, 0, 64);
    }

    // ---- helpers ------------------------------------------------------------------------------

    private Options mwOptions() {
        return Options.defaults().withQpAccess(ALL_REMOTE).withMrAccess(ALL_REMOTE | AccessFlags.MW_BIND);
    }

    private MemoryWindow type1() {
        assumeSupported(Feature.MEMORY_WINDOW_TYPE_1);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        return track(b.pd.allocMw(MwType.TYPE_1));
    }

    private MemoryWindow type2() {
        assumeSupported(Feature.MEMORY_WINDOW_TYPE_2);
        assumeOpcode(WrOpcode.RDMA_WRITE);
        MemoryWindow mw = track(b.pd.allocMw(MwType.TYPE_2));
        assertThat(mw.type()).isEqualTo(MwType.TYPE_2);
        return mw;
    }

    private long windowAddr() {
        return b.recvMr.addr() + WINDOW;
    }

    private MwBind window(int access) {
        return new MwBind(b.recvMr, windowAddr(), WINDOW_BYTES, access);
    }

    /** ibv_bind_mw on B's QP, signaled; returns the new rkey once the BIND_MW completion is polled. */
    private int bindType1(MemoryWindow mw, int access) {
        int rkey = b.qp.bindMw(mw, window(access), BIND, true);
        assertBindCompletion();
        assertThat(mw.rkey()).as("the window's rkey after the bind").isEqualTo(rkey);
        return rkey;
    }

    /** A BIND_MW WR on B's QP asking for ibv_inc_rkey of the current rkey; returns the bound rkey. */
    private int bindType2(MemoryWindow mw, int access) {
        int old = mw.rkey();
        SendWorkRequest wr = new SendWorkRequest().wrId(BIND).opcode(WrOpcode.BIND_MW).flags(SendFlags.SIGNALED);
        wr.mw = mw;
        wr.bind = window(access);
        wr.rkey = (old & ~0xFF) | ((old + 1) & 0xFF);
        b.qp.postSend(wr);
        assertBindCompletion();
        int rkey = mw.rkey();
        assertThat(rkey & 0xFF).as("the key byte after a bind").isNotEqualTo(old & 0xFF);
        return rkey;
    }

    private void assertBindCompletion() {
        WorkCompletion wc = awaitCompletion(b.sendCq, "the bind");
        assertWc(wc, BIND, WcStatus.SUCCESS, b.qp);
        assertThat(wc.opcode).as("opcode of %s", wc).isEqualTo(WcOpcode.BIND_MW);
    }

    /** A's WRITE of {@code len} bytes at {@code offset} into the window succeeds and lands exactly. */
    private void assertWriteLands(int rkey, long offset, int len) {
        long at = WINDOW + offset;
        a.qp.postSend(write(3, SendFlags.SIGNALED, Sge.of(a.sendMr, at, len), b.recvMr.addr() + at, rkey));
        assertWc(awaitCompletion(a.sendCq, "a WRITE through the window"), 3, WcStatus.SUCCESS, a.qp);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(at, len), a.sendMr.segment().asSlice(at, len),
                "the WRITE through the window");
        b.recvMr.segment().asSlice(at, len).fill(CANARY);
    }

    /** A's WRITE fails REM_ACCESS_ERR, both QPs go to ERR (class C) and B's buffer is all canary. */
    private void assertWriteRefused(int rkey, long offset, int len, String what) {
        a.qp.postSend(write(4, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, len), windowAddr() + offset, rkey));
        assertWc(awaitCompletion(a.sendCq, what), 4, WcStatus.REM_ACCESS_ERR, a.qp);
        for (var qp : List.of(a.qp, b.qp)) {
            awaitState(qp, QpState.ERR, qp == a.qp ? "A" : "B");
        }
        Payload.assertFilledWith(b.recvMr.segment(), CANARY, "B's memory after " + what);
    }
}
