package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.PrimitiveIterator;
import java.util.stream.IntStream;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.memory.PdId;
import org.jrdma.soft.memory.Quarantine;
import org.jrdma.soft.memory.Region;
import org.jrdma.soft.memory.Window;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.MwType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SEC-03 (RELIABILITY-SECURITY §6.1): a token that named something gone — the rkey of a
 * deregistered region, the QPN of a destroyed QP — reaches nothing. A stale rkey gets
 * REM_ACCESS_ERR and moves no byte; re-registering the same buffer gives a new rkey; a packet
 * to a dead QPN is dropped and counted (the sender retries, then fails); and a fresh rkey or
 * QPN is never one of the last 2^16 retired ones nor a live one (the quarantine).
 */
class StaleTokenTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = WrOpcode.class, names = {"RDMA_WRITE", "RDMA_READ"})
    void sec03DeregisteredRkeyIsRejectedWithRemoteAccessErrorAfterTheBufferIsRegisteredAgain(WrOpcode op) {
        try (RcPair p = new RcPair(FreshDevices.fresh("stale"), Mtu.MTU_1024, 14, 7, 7, 12, 8192, RcPair.REMOTE_ALL,
                RcPair.REMOTE_ALL, 4)) {
            p.fill(p.bufB, 3);
            int stale = p.mrB.rkey();
            // The key works while its region lives.
            p.a.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 64)).rdma(p.mrB.addr(), stale));
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE).getFirst().status).isEqualTo(WcStatus.SUCCESS);

            p.mrB.close();
            MemoryRegion again = p.pd.registerMemory(p.bufB, RcPair.REMOTE_ALL);
            assertThat(again.rkey()).as("the rkey of the same buffer registered again").isNotEqualTo(stale);
            byte[] before = p.bufB.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            p.fill(p.bufA, 4);
            long accessErrors = p.hca().count(org.jrdma.soft.transport.QpCounter.REMOTE_ACCESS_ERRORS);

            p.a.postSend(new SendWorkRequest().wrId(2).opcode(op).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(p.mrA, 0, 64)).rdma(again.addr(), stale));
            WorkCompletion wc = RcPair.poll(p.cqA, 1, DEADLINE).getFirst();
            assertThat(wc.status).as("%s with the stale rkey", op).isEqualTo(WcStatus.REM_ACCESS_ERR);
            assertThat(p.bufB.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)).as("the re-registered buffer")
                    .isEqualTo(before);
            assertThat(p.hca().count(org.jrdma.soft.transport.QpCounter.REMOTE_ACCESS_ERRORS)).isGreaterThan(accessErrors);
            RcPair.await(() -> p.b.query().qpState() == QpState.ERR, DEADLINE, "the responder in ERR");
        }
    }

    /** A destroyed QP's number reaches nothing: its packets are dropped as UNKNOWN_QPN and the sender fails. */
    @Test
    void sec03PacketsToADestroyedQpAreDroppedAndTheSenderFailsWithRetryExceeded() {
        try (RcPair p = new RcPair(FreshDevices.fresh("deadqp"), Mtu.MTU_1024, 8, 2, 7, 12, 4096)) {
            p.b.close();
            long before = p.hca().drops(DropReason.UNKNOWN_QPN);
            p.send(5, 0, 64);
            WorkCompletion wc = RcPair.poll(p.cqA, 1, DEADLINE).getFirst();
            assertThat(wc.status).as("a SEND to a destroyed QP").isEqualTo(WcStatus.RETRY_EXC_ERR);
            assertThat(p.hca().drops(DropReason.UNKNOWN_QPN) - before).as("packets dropped as unknown QPN")
                    .isEqualTo(3); // the first try and 2 retries
        }
    }

    /** The quarantine: a retired or live rkey drawn again is skipped, so a fresh key is neither. */
    @Test
    void sec03FreshRkeyIsNeverARetiredOrLiveOne() {
        try (RcPair p = new RcPair(FreshDevices.fresh("quar"), Mtu.MTU_1024, 14, 7, 7, 12, 4096)) {
            int k = 0x11111111;
            int l = 0x22222222;
            int r = 0x33333333;
            int l2 = 0x44444444;
            int r2 = 0x55555555;
            // The source draws K again right after it was retired, then R again while R is live.
            PrimitiveIterator.OfInt script = IntStream.of(k, l, k, r, l, l2, r, k, r2).iterator();
            MemoryTable table = new MemoryTable(script::nextInt, 16);
            Window window = ((SoftMw) p.pd.allocMw(MwType.TYPE_1)).window();
            assertThat(table.addWindow(window)).isEqualTo(k);
            table.removeWindow(window, k);
            PdId pd = ((SoftPd) p.pd).id();
            Region first = table.register(pd, p.mrA.segment(), p.mrA.access());
            assertThat(first.lkey()).isEqualTo(l);
            assertThat(first.rkey()).as("K was retired").isEqualTo(r);
            Region second = table.register(pd, p.mrB.segment(), p.mrB.access());
            assertThat(second.lkey()).as("L is live").isEqualTo(l2);
            assertThat(second.rkey()).as("R is live, K retired").isEqualTo(r2);
            assertThat(script.hasNext()).isFalse();
        }
    }

    /** The window keeps the last {@code capacity} retirements, oldest out first. */
    @Test
    void sec03QuarantineForgetsTheOldestRetirementOnlyWhenFull() {
        Quarantine q = new Quarantine(40);
        for (int i = 1; i <= 40; i++) {
            q.add(i * 7);
        }
        assertThat(IntStream.rangeClosed(1, 40).allMatch(i -> q.contains(i * 7))).isTrue();
        q.add(1000);
        assertThat(q.contains(7)).as("the oldest left").isFalse();
        assertThat(q.contains(14)).isTrue();
        assertThat(q.contains(1000)).isTrue();
        assertThat(q.size()).isEqualTo(40);
        assertThat(q.contains(3)).isFalse();
    }
}
