package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Device, port and GID queries; PDs, MRs and CQs: what they report and what they refuse. */
public abstract class ResourceSuite extends ProviderSuite {
    /** For a provider's subclass, which supplies the fixture. */
    public ResourceSuite() {
    }

    private Arena arena;

    /** Opens the shared arena the test's memory comes from, closed after the test. */
    @BeforeEach
    protected final void openArena() {
        // Shared: a provider may touch registered memory from its own threads.
        arena = track(Arena.ofShared());
    }

    // ---- device, port, GID ----------------------------------------------------------------------

    @Test
    void queryDeviceReportsUsableLimits() {
        DeviceAttr d = context.queryDevice();
        SoftAssertions.assertSoftly(s -> {
            s.assertThat(d.physPortCnt()).as("phys_port_cnt").isGreaterThanOrEqualTo(fx.port());
            s.assertThat(d.maxQp()).as("max_qp").isPositive();
            s.assertThat(d.maxQpWr()).as("max_qp_wr").isPositive();
            s.assertThat(d.maxSge()).as("max_sge").isPositive();
            s.assertThat(d.maxCq()).as("max_cq").isPositive();
            s.assertThat(d.maxCqe()).as("max_cqe").isPositive();
            s.assertThat(d.maxMr()).as("max_mr").isPositive();
            s.assertThat(d.maxPd()).as("max_pd").isPositive();
            s.assertThat(d.maxMrSize()).as("max_mr_size").isPositive();
            s.assertThat(d.maxMsgSize()).as("max_msg_sz").isPositive();
            s.assertThat(context.device().name()).as("device name").isNotBlank();
        });
    }

    @Test
    void portIsActiveWithASaneMtuAndGidTable() {
        PortAttr p = context.queryPort(fx.port());
        SoftAssertions.assertSoftly(s -> {
            s.assertThat(p.state()).as("port state").isEqualTo(PortState.ACTIVE);
            s.assertThat(p.activeMtu().bytes()).as("active MTU").isLessThanOrEqualTo(p.maxMtu().bytes());
            s.assertThat(p.gidTblLen()).as("gid_tbl_len").isGreaterThan(fx.gidIndex());
            s.assertThat(p.linkLayer()).as("link layer (as ibv_devinfo prints it)").isIn("Ethernet", "InfiniBand");
            if ("Ethernet".equals(p.linkLayer())) {
                s.assertThat(p.lid()).as("LID on RoCE").isZero();
            }
        });
    }

    @Test
    void portOutOfRangeIsRefusedWithEinval() {
        int ports = context.queryDevice().physPortCnt();
        assertFails(Errno.EINVAL, () -> context.queryPort(0));
        assertFails(Errno.EINVAL, () -> context.queryPort(ports + 1));
    }

    @Test
    void gidAtTheFixturesIndexIsNonZero() {
        Gid gid = context.queryGid(fx.port(), fx.gidIndex());
        assertThat(gid).isNotNull();
        assertThat(gid.isZero()).as("GID %s is zero", gid).isFalse();
    }

    @Test
    void gidIndexOutOfRangeIsRefusedWithEinval() {
        int len = context.queryPort(fx.port()).gidTblLen();
        assertFails(Errno.EINVAL, () -> context.queryGid(fx.port(), len));
        assertFails(Errno.EINVAL, () -> context.queryGid(fx.port(), -1));
    }

    // ---- memory regions -------------------------------------------------------------------------

    @Test
    void memoryRegionReportsItsSegmentAccessAndPd() {
        ProtectionDomain pd = track(context.allocPd());
        assertThat(pd.context()).isSameAs(context);
        MemorySegment segment = arena.allocate(8192, 4096);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_READ;
        MemoryRegion mr = track(pd.registerMemory(segment, access, arena));
        assertThat(mr.addr()).isEqualTo(segment.address());
        assertThat(mr.length()).isEqualTo(segment.byteSize());
        assertThat(mr.access()).isEqualTo(access);
        assertThat(mr.pd()).isSameAs(pd);
    }

    /** Keys are unique among live MRs (DESIGN "Secure by default"; SEC-01 checks their entropy). */
    @Test
    void keysOfManyMemoryRegionsAreDistinct() {
        ProtectionDomain pd = track(context.allocPd());
        int n = Math.min(1000, context.queryDevice().maxMr() / 2);
        MemorySegment segment = arena.allocate(64L * n, 4096);
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;
        Set<Integer> lkeys = new HashSet<>();
        Set<Integer> rkeys = new HashSet<>();
        for (int i = 0; i < n; i++) {
            MemoryRegion mr = track(pd.registerMemory(segment.asSlice(64L * i, 64), access, arena));
            lkeys.add(mr.lkey());
            rkeys.add(mr.rkey());
        }
        assertThat(lkeys).as("distinct lkeys of %d MRs", n).hasSize(n);
        assertThat(rkeys).as("distinct rkeys of %d MRs", n).hasSize(n);
    }

    /** DESIGN: heap arrays move under the GC and cannot be registered. */
    @Test
    void heapSegmentIsRefusedWithEinval() {
        ProtectionDomain pd = track(context.allocPd());
        assertFails(Errno.EINVAL,
                () -> pd.registerMemory(MemorySegment.ofArray(new byte[4096]), AccessFlags.LOCAL_WRITE));
    }

    /** ibv_reg_mr.3: REMOTE_WRITE or REMOTE_ATOMIC needs LOCAL_WRITE (rdma-core test_reg_mr_bad_flags, SEC-41). */
    @ParameterizedTest(name = "access {0}")
    @ValueSource(ints = {AccessFlags.REMOTE_WRITE, AccessFlags.REMOTE_ATOMIC,
            AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ})
    void remoteWriteOrAtomicWithoutLocalWriteIsRefusedWithEinval(int access) {
        ProtectionDomain pd = track(context.allocPd());
        assertFails(Errno.EINVAL, () -> pd.registerMemory(arena.allocate(4096, 4096), access, arena));
    }

    @ParameterizedTest(name = "access {0}")
    @ValueSource(ints = {0, AccessFlags.REMOTE_READ, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE})
    void consistentAccessFlagsAreAccepted(int access) {
        ProtectionDomain pd = track(context.allocPd());
        MemoryRegion mr = track(pd.registerMemory(arena.allocate(4096, 4096), access, arena));
        assertThat(mr.access()).isEqualTo(access);
    }

    // ---- teardown order -------------------------------------------------------------------------

    /** ibv_dealloc_pd fails with EBUSY while an MR remains. */
    @Test
    void closingAPdWithALiveMrIsRefusedWithEbusy() {
        ProtectionDomain pd = track(context.allocPd());
        MemoryRegion mr = track(pd.registerMemory(arena.allocate(4096, 4096), AccessFlags.LOCAL_WRITE, arena));
        assertFails(Errno.EBUSY, pd::close);
        closeNow(mr);
        closeNow(pd);
    }

    @Test
    void closingAPdWithALiveQpIsRefusedWithEbusy() {
        ProtectionDomain pd = track(context.allocPd());
        CompletionQueue cq = track(context.createCq(16, null));
        QueuePair qp = track(pd.createQp(new QpInitAttr().qpType(QpType.RC).cq(cq)));
        assertFails(Errno.EBUSY, pd::close);
        closeNow(qp);
        closeNow(pd);
    }

    /** ibv_destroy_cq fails with EBUSY while a QP uses it. */
    @Test
    void closingACqThatAQpUsesIsRefusedWithEbusy() {
        ProtectionDomain pd = track(context.allocPd());
        CompletionQueue cq = track(context.createCq(16, null));
        QueuePair qp = track(pd.createQp(new QpInitAttr().qpType(QpType.RC).cq(cq)));
        assertFails(Errno.EBUSY, cq::close);
        closeNow(qp);
        closeNow(cq);
    }

    // ---- completion queues ----------------------------------------------------------------------

    @ParameterizedTest(name = "{0} entries")
    @ValueSource(ints = {1, 16, 255, 4096})
    void cqCapacityIsAtLeastWhatWasAsked(int entries) {
        int max = context.queryDevice().maxCqe();
        assumeTrue(entries <= max, () -> "the device's max_cqe is " + max);
        CompletionQueue cq = track(context.createCq(entries, null));
        assertThat(cq.capacity()).isGreaterThanOrEqualTo(entries);
        assertThat(cq.channel()).isNull();
        assertThat(cq.poll(newCompletions(4))).as("completions in a new CQ").isZero();
    }

    @Test
    void cqLargerThanTheDeviceAllowsIsRefusedWithEinval() {
        int max = context.queryDevice().maxCqe();
        assumeTrue(max < Integer.MAX_VALUE, "max_cqe leaves room above it");
        assertFails(Errno.EINVAL, () -> track(context.createCq(max + 1, null)));
    }
}
