package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * Sequencing, duplicates and lost ACKs with an exact packet script (RELIABILITY-SECURITY §6.7:
 * REL-05, REL-06 class D, REL-08, REL-10). The other sequencing IDs are proven elsewhere: see
 * docs/catalogue/fuzz-sequencing.md.
 */
class SequencingTest {
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final int SEND_MIDDLE = 0x01;

    private static RcPair pair(ScriptedDatagrams.Script script, int releaseAfter, ScriptedDatagrams[] made, int timeout) {
        SoftDevice dev = FreshDevices.fresh("seq",
                SoftOptions.defaults().datagrams(ScriptedDatagrams.factory(script, releaseAfter, made)));
        return new RcPair(dev, Mtu.MTU_1024, timeout, 7, 7, 1, 1 << 17, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 2);
    }

    /**
     * REL-05: every third request packet arrives twice, and afterwards the harness replays the
     * last message. Each duplicate is counted and re-ACKed with ePSN − 1 (C9-105), never
     * executed again: each SEND consumes one receive, data is byte-exact, spare receives stay unused.
     */
    @Test
    void rel05DuplicatedSendAndWritePacketsAreReAckedNotReExecuted() throws Exception {
        ScriptedDatagrams[] made = new ScriptedDatagrams[1];
        int[] duplicated = {0};
        ScriptedDatagrams.Script everyThird = o -> {
            if (o.isRequest() && o.request() % 3 == 2) {
                duplicated[0]++;
                return ScriptedDatagrams.Action.DUPLICATE;
            }
            return ScriptedDatagrams.Action.PASS;
        };
        try (RcPair p = pair(everyThird, 0, made, 14)) { // 67 ms per try: no spurious retransmits
            p.fill(p.bufA, 5);
            int[] sizes = {100, 3000, 1024, 5000, 1, 2048, 777, 4096};
            long offset = 0;
            for (int i = 0; i < sizes.length; i++) {
                p.postRecv(i, offset, sizes[i]);
                offset += sizes[i];
            }
            for (int spare = 0; spare < 4; spare++) {
                p.postRecv(100 + spare, 60_000, 8192);
            }
            offset = 0;
            for (int i = 0; i < sizes.length; i++) {
                p.send(i, offset, sizes[i]); // SENDs into bufB[offset...]
                p.a.postSend(new SendWorkRequest().wrId(50 + i).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, offset, sizes[i])).rdma(p.mrB.addr() + 70_000 + offset, p.mrB.rkey()));
                offset += sizes[i];
            }
            long total = offset;
            List<WorkCompletion> sent = RcPair.poll(p.cqA, 2 * sizes.length, DEADLINE);
            List<WorkCompletion> recv = RcPair.poll(p.cqB, sizes.length, DEADLINE);
            assertThat(sent).hasSize(2 * sizes.length).allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(recv).hasSize(sizes.length).allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            for (int i = 0; i < sizes.length; i++) {
                assertThat(recv.get(i).wrId).isEqualTo(i);
                assertThat(recv.get(i).byteLen).isEqualTo(sizes[i]);
            }
            assertThat(p.bufB.asSlice(0, total).mismatch(p.bufA.asSlice(0, total))).isEqualTo(-1);
            assertThat(p.bufB.asSlice(70_000, total).mismatch(p.bufA.asSlice(0, total))).isEqualTo(-1);
            Map<String, Long> c = p.hca().countersSnapshot();
            assertThat(duplicated[0]).isPositive();
            assertThat(c.get("duplicate_requests")).as("%s", c).isGreaterThanOrEqualTo(duplicated[0]);
            if (c.get("retransmitted_packets") == 0) {
                assertThat(c.get("duplicate_requests")).as("%s", c).isEqualTo(duplicated[0]);
            }

            // The harness replays the last message (the 4096-byte WRITE: 4 packets).
            ScriptedDatagrams net = made[0];
            int last = net.requestsOffered();
            int lastPsn = net.psnOfRequest(last - 1);
            int mark = net.sent().size();
            long dupsBefore = c.get("duplicate_requests");
            net.replay(last - 4, last, net.localAddress());
            RcPair.await(() -> p.hca().countersSnapshot().get("duplicate_requests") == dupsBefore + 4
                    && net.sent().stream().skip(mark).anyMatch(s -> s.opcode() == ScriptedDatagrams.ACKNOWLEDGE),
                    DEADLINE, "the replayed packets to be seen as duplicates and re-ACKed");
            List<ScriptedDatagrams.Sent> acks = net.sent().stream().skip(mark)
                    .filter(s -> s.opcode() == ScriptedDatagrams.ACKNOWLEDGE).toList();
            assertThat(acks).allSatisfy(a -> {
                assertThat(a.psn()).as("re-ACK with ePSN - 1").isEqualTo(lastPsn);
                assertThat(a.syndrome()).isEqualTo(Aeth.ACK_SYNDROME);
            });
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(p.cqB.poll(wc)).as("no receive consumed by a replay").isZero();
            assertThat(p.cqA.poll(wc)).isZero();
        }
    }

    /**
     * REL-08: PSNs k+1..k+5 of a 7-packet SEND arrive before k. Exactly one sequence NAK for the
     * gap (rxe sent_psn_nak), the later out-of-order packets dropped silently, recovery by the
     * NAK's go-back-N (not the timer), and the message delivered once, byte-exact.
     */
    @Test
    void rel08PacketsAheadOfAGapGetOneSequenceNakAndAreDeliveredOnce() {
        ScriptedDatagrams[] made = new ScriptedDatagrams[1];
        boolean[] once = {false};
        ScriptedDatagrams.Script holdFirstMiddle = o -> {
            if (o.opcode() == SEND_MIDDLE && !once[0]) {
                once[0] = true;
                return ScriptedDatagrams.Action.HOLD; // k: released after k+1..k+5
            }
            return ScriptedDatagrams.Action.PASS;
        };
        try (RcPair p = pair(holdFirstMiddle, 5, made, 14)) {
            p.fill(p.bufA, 8);
            int len = 7 * 1024 - 100; // FIRST, MIDDLE k, MIDDLE k+1..k+4, LAST k+5
            p.postRecv(1, 0, len);
            p.postRecv(2, 16_384, len); // spare: must stay unused
            p.send(9, 0, len);
            assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement().satisfies(wc -> {
                assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.wrId).isEqualTo(1);
                assertThat(wc.byteLen).isEqualTo(len);
            });
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(p.cqB.poll(wc)).as("duplicate deliveries").isZero();
            assertThat(p.bufB.asSlice(0, len).mismatch(p.bufA.asSlice(0, len))).isEqualTo(-1);

            Map<String, Long> c = p.hca().countersSnapshot();
            List<ScriptedDatagrams.Sent> naks = made[0].sent().stream()
                    .filter(s -> s.opcode() == ScriptedDatagrams.ACKNOWLEDGE && s.syndrome() == Aeth.NAK_PSN_SEQUENCE_ERROR)
                    .toList();
            assertThat(c.get("seq_naks_sent")).as("NAKs per gap, %s", c).isEqualTo(1);
            assertThat(naks).as("on the wire").hasSize(1);
            assertThat(c.get("out_of_sequence")).as("k+1..k+5 dropped, %s", c).isGreaterThanOrEqualTo(5);
            assertThat(c.get("retry_timeouts")).as("recovered by the NAK, %s", c).isZero();
        }
    }

    /**
     * REL-10: every ACK is lost until the requester has timed out three times (j = 3 &lt;
     * retry_cnt = 7). The retransmitted requests are duplicates, re-ACKed with the last PSN, and
     * the first ACK that gets through stands for all six WRs: everything succeeds, each SEND is
     * received once. (Coalescing of ACKs within one receive burst: AckCoalescingTest.)
     */
    @Test
    void rel10AllAcksLostForFewerThanRetryCntTimeoutsStillSucceed() {
        ScriptedDatagrams[] made = new ScriptedDatagrams[1];
        AtomicReference<RcPair> pairRef = new AtomicReference<>();
        int j = 3;
        ScriptedDatagrams.Script dropAcks = o -> {
            RcPair p = pairRef.get();
            boolean early = p == null || p.hca().countersSnapshot().get("retry_timeouts") < j;
            return o.opcode() == ScriptedDatagrams.ACKNOWLEDGE && early ? ScriptedDatagrams.Action.DROP
                    : ScriptedDatagrams.Action.PASS;
        };
        try (RcPair p = pair(dropAcks, 0, made, 10)) { // 4.2 ms per try
            pairRef.set(p);
            p.fill(p.bufA, 10);
            for (int i = 0; i < 4; i++) {
                p.postRecv(i, 2048L * i, 2048);
            }
            p.postRecv(99, 60_000, 2048); // spare
            for (int i = 0; i < 4; i++) {
                p.send(i, 2048L * i, 1500);
            }
            for (int i = 0; i < 2; i++) {
                p.a.postSend(new SendWorkRequest().wrId(10 + i).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, 4096L * i, 3000)).rdma(p.mrB.addr() + 20_000 + 4096L * i, p.mrB.rkey()));
            }
            int lastPsn;
            List<WorkCompletion> sent = RcPair.poll(p.cqA, 6, DEADLINE);
            assertThat(sent).hasSize(6).allSatisfy(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThat(RcPair.poll(p.cqB, 4, DEADLINE)).hasSize(4).allSatisfy(wc -> assertThat(wc.byteLen).isEqualTo(1500));
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(p.cqB.poll(wc)).as("no SEND received twice").isZero();
            for (int i = 0; i < 2; i++) {
                assertThat(p.bufB.asSlice(20_000 + 4096L * i, 3000).mismatch(p.bufA.asSlice(4096L * i, 3000))).isEqualTo(-1);
            }
            Map<String, Long> c = p.hca().countersSnapshot();
            assertThat(c.get("retry_timeouts")).as("%s", c).isGreaterThanOrEqualTo(j);
            assertThat(c.get("retry_exceeded")).isZero();
            assertThat(c.get("duplicate_requests")).as("%s", c).isPositive();
            // 4 one-packet SENDs and 2 three-packet WRITEs: the last request PSN is the first + 9.
            lastPsn = made[0].sent().stream().filter(s -> s.opcode() != ScriptedDatagrams.ACKNOWLEDGE)
                    .mapToInt(ScriptedDatagrams.Sent::psn).max().orElseThrow();
            int finalPsn = lastPsn;
            assertThat(made[0].sent().stream().filter(s -> s.opcode() == ScriptedDatagrams.ACKNOWLEDGE).findFirst())
                    .as("the first ACK to get through acknowledges every WR")
                    .hasValueSatisfying(a -> assertThat(a.psn()).isEqualTo(finalPsn));
        }
    }

    /**
     * REL-06 (class D): the harness replays old READ requests. One whose responder resource was
     * recycled by a later READ (max_dest_rd_atomic 1) is dropped and counted — no response, no
     * error, both QPs stay RTS; one whose resource is still there is answered again by re-reading
     * memory (so the bytes are memory as it is now), and the requester drops that stale response.
     */
    @Test
    void rel06ADuplicateReadIsReplayedFromItsResourceOrDroppedOnceItIsRecycled() throws Exception {
        ScriptedDatagrams[] made = new ScriptedDatagrams[1];
        SoftDevice dev = FreshDevices.fresh("seq",
                SoftOptions.defaults().datagrams(ScriptedDatagrams.factory(o -> ScriptedDatagrams.Action.PASS, 0, made)));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 1 << 12, RcPair.REMOTE_ALL, RcPair.REMOTE_ALL, 1)) {
            p.fill(p.bufB, 6);
            for (int i = 0; i < 2; i++) { // request 0 and request 1: one READ at a time (depth 1)
                p.a.postSend(new SendWorkRequest().wrId(i).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                        .sg(Sge.of(p.mrA, 256L * i, 100)).rdma(p.mrB.addr() + 256L * i, p.mrB.rkey()));
                assertThat(RcPair.poll(p.cqA, 1, DEADLINE)).singleElement()
                        .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            }
            ScriptedDatagrams net = made[0];
            assertThat(net.requestsOffered()).isEqualTo(2);
            int read2Psn = net.psnOfRequest(1);

            long dropped0 = p.hca().countersSnapshot().get("duplicates_dropped");
            int mark = net.sent().size();
            net.replay(0, 1, net.localAddress()); // READ 1: its resource now holds READ 2
            RcPair.await(() -> p.hca().countersSnapshot().get("duplicates_dropped") == dropped0 + 1, DEADLINE,
                    "the replayed READ 1 to be dropped");
            assertThat(net.sent().stream().skip(mark).filter(s -> s.opcode() != 0x0C)).as("no answer to READ 1").isEmpty();

            long dups0 = p.hca().countersSnapshot().get("duplicate_requests");
            int mark2 = net.sent().size();
            net.replay(1, 2, net.localAddress()); // READ 2: replayed from its resource
            RcPair.await(() -> net.sent().stream().skip(mark2).anyMatch(s -> s.opcode() == 0x10 && s.psn() == read2Psn),
                    DEADLINE, "READ 2 to be answered again");
            assertThat(p.hca().countersSnapshot().get("duplicate_requests")).isGreaterThanOrEqualTo(dups0 + 1);
            WorkCompletion[] wc = {new WorkCompletion()};
            assertThat(p.cqA.poll(wc)).as("a stale READ response completes nothing").isZero();
            assertThat(p.a.state()).isEqualTo(org.jrdma.verbs.QpState.RTS);
            assertThat(p.b.state()).isEqualTo(org.jrdma.verbs.QpState.RTS);
            // The connection still works.
            p.postRecv(7, 0, 64);
            p.send(8, 0, 64);
            assertThat(RcPair.poll(p.cqB, 1, DEADLINE)).singleElement()
                    .satisfies(w -> assertThat(w.status).isEqualTo(WcStatus.SUCCESS));
        }
    }
}
