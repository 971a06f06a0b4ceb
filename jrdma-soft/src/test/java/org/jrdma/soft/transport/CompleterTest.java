package org.jrdma.soft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.jrdma.soft.transport.Requests.*;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.StageMemory;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The requester and the completer built alone (rxe_req.c, rxe_comp.c; issue 14 item 7): a
 * fake clock is the {@code now} they are given, the requester's packets are decoded from the
 * fake port, and responses are handed to the completer as the engine would.
 */
class CompleterTest {
    private static final int S = StageQp.SQ_PSN;
    /** timeout 14: 4.096 µs × 2^14. */
    private static final long ACK_TIMEOUT_NANOS = 4096L << 14;

    private StageMemory memory;
    private FakePort port;
    private Requester requester;
    private Completer completer;
    private long now = 1_000_000_000L;

    @BeforeEach
    void build() {
        memory = new StageMemory("completer");
        port = new FakePort();
        requester = new Requester(port);
        completer = new Completer(new StallWarnings("stage-test"));
    }

    @AfterEach
    void close() {
        memory.close();
    }

    private StageQp rc(int retryCnt, int rnrRetry) {
        return new StageQp(memory, QpType.RC, StageQp.REMOTE_ALL, 4, 14, retryCnt, rnrRetry);
    }

    private void postSend(StageQp q, long wrId, int bytes) {
        SoftMr mr = memory.region(Math.max(bytes, 8), AccessFlags.LOCAL_WRITE);
        q.qp.postSend(new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(Sge.of(mr, 0, bytes)));
    }

    private List<RxPacket> work(StageQp q) {
        requester.doWork(q.qp, now, 256);
        return port.drain();
    }

    private void respond(StageQp q, Requests r) {
        Requests.Request req = r.build();
        completer.onResponse(q.qp, req.pkt(), req.data(), now);
    }

    private void ack(StageQp q, int syndrome, int psn) {
        respond(q, Requests.of(ACKNOWLEDGE, psn).aeth(syndrome, 0));
    }

    @Test
    void aMessageIsCutIntoMtuPacketsWithAckReqOnTheLastAndEvery64() {
        StageQp q = rc(7, 7);
        postSend(q, 1, 100 * 1024);
        List<RxPacket> out = work(q);
        assertThat(out).hasSize(100);
        assertThat(out.get(0).opcode().code()).isEqualTo(SEND_FIRST);
        assertThat(out.get(50).opcode().code()).isEqualTo(SEND_MIDDLE);
        assertThat(out.get(99).opcode().code()).isEqualTo(SEND_LAST);
        for (int i = 0; i < 100; i++) {
            assertThat(out.get(i).bth().psn()).isEqualTo(S + i);
            assertThat(out.get(i).bth().ackReq()).as("AckReq on packet %d", i).isEqualTo(i == 63 || i == 99);
        }
    }

    @Test
    void theWindowStopsTheRequesterAt128UnacknowledgedPsns() {
        StageQp q = rc(7, 7);
        postSend(q, 1, 200 * 1024);
        assertThat(work(q)).hasSize(128);
        assertThat(work(q)).isEmpty();
        ack(q, Aeth.ACK_SYNDROME, S + 9);
        assertThat(work(q)).extracting(p -> p.bth().psn()).first().isEqualTo(S + 128);
    }

    @Test
    void aSequenceNakRewindsTheRequesterToItsPsnGoBackN() {
        StageQp q = rc(7, 7);
        postSend(q, 1, 3 * 1024);
        postSend(q, 2, 1024);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S, S + 1, S + 2, S + 3);

        ack(q, Aeth.NAK_PSN_SEQUENCE_ERROR, S + 1); // the responder got S, lost S + 1
        // The completer only asks (rxe need_retry); the requester's own state is untouched ...
        assertThat(q.qp.req.needRetry).isTrue();
        assertThat(q.qp.req.retryPsn).isEqualTo(S + 1);
        assertThat(q.qp.req.reqPsn).isEqualTo(S + 4);
        assertThat(q.qp.sq.next).isEqualTo(2);
        assertThat(q.qp.sqPsn()).as("what query_qp reports already").isEqualTo(S + 1);
        // ... until the requester's next doWork rewinds it and resends from the gap.
        List<RxPacket> resent = work(q);
        assertThat(q.qp.req.needRetry).isFalse();
        assertThat(resent).extracting(p -> p.opcode().code(), p -> p.bth().psn()).containsExactly(
                tuple(SEND_MIDDLE, S + 1), tuple(SEND_LAST, S + 2), tuple(SEND_ONLY, S + 3));
        assertThat(q.count(QpCounter.RETRANSMITTED_PACKETS)).isEqualTo(3);
        assertThat(q.sendCq.completions).isEmpty();

        ack(q, Aeth.ACK_SYNDROME, S + 3);
        assertThat(q.sendCq.completions).extracting(wc -> wc.wrId, wc -> wc.status)
                .containsExactly(tuple(1L, WcStatus.SUCCESS), tuple(2L, WcStatus.SUCCESS));
        assertThat(q.qp.retransmitDeadline).as("nothing outstanding: the timer stops").isZero();
    }

    @ParameterizedTest
    @CsvSource({"0x61, REM_INV_REQ_ERR", "0x62, REM_ACCESS_ERR", "0x63, REM_OP_ERR", "0x64, REM_OP_ERR"})
    void anErrorNakFailsTheWqeItNamesAndFlushesTheRest(String syndrome, WcStatus status) {
        StageQp q = rc(7, 7);
        postSend(q, 1, 8);
        postSend(q, 2, 8);
        postSend(q, 3, 8);
        work(q);
        ack(q, Integer.decode(syndrome), S + 1); // also acknowledges S
        assertThat(q.sendCq.completions).extracting(wc -> wc.wrId, wc -> wc.status).containsExactly(
                tuple(1L, WcStatus.SUCCESS), tuple(2L, status), tuple(3L, WcStatus.WR_FLUSH_ERR));
        assertThat(q.qp.state()).isEqualTo(QpState.ERR);
        assertThat(work(q)).isEmpty();
    }

    @Test
    void anRnrNakHoldsTheRequesterForTheResponderTimerThenResends() {
        StageQp q = rc(7, 3);
        postSend(q, 1, 8);
        work(q);
        ack(q, Aeth.rnrNakSyndrome(14), S); // 14: 1.28 ms (IBA table)
        long deadline = now + RnrTimer.nanos(14);
        assertThat(q.qp.rnrDeadline).isEqualTo(deadline);
        now = deadline - 1;
        assertThat(completer.onTimers(q.qp, now)).isZero();
        assertThat(work(q)).as("no resend before the responder's timer").isEmpty();
        now = deadline;
        assertThat(completer.onTimers(q.qp, now)).isEqualTo(1);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S);
        assertThat(q.count(QpCounter.RNR_NAKS_RCVD)).isEqualTo(1);
    }

    @Test
    void rnrRetriesRunOutInRnrRetryExceeded() {
        StageQp q = rc(7, 1);
        postSend(q, 1, 8);
        work(q);
        ack(q, Aeth.rnrNakSyndrome(1), S);
        now += RnrTimer.nanos(1);
        completer.onTimers(q.qp, now);
        work(q);
        ack(q, Aeth.rnrNakSyndrome(1), S);
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.RNR_RETRY_EXC_ERR);
        assertThat(q.count(QpCounter.RNR_RETRY_EXCEEDED)).isEqualTo(1);
        assertThat(q.qp.state()).isEqualTo(QpState.ERR);
    }

    @Test
    void theAckTimerResendsAndRetryCntTimeoutsEndInRetryExceeded() {
        StageQp q = rc(2, 7);
        postSend(q, 1, 8);
        work(q);
        for (int retry = 0; retry < 2; retry++) {
            now += ACK_TIMEOUT_NANOS;
            assertThat(completer.onTimers(q.qp, now)).isEqualTo(1);
            assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S);
        }
        now += ACK_TIMEOUT_NANOS - 1;
        assertThat(completer.onTimers(q.qp, now)).as("not before the timeout").isZero();
        now += 1;
        completer.onTimers(q.qp, now);
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.RETRY_EXC_ERR);
        assertThat(q.count(QpCounter.RETRY_TIMEOUTS)).isEqualTo(3);
        assertThat(q.count(QpCounter.RETRY_EXCEEDED)).isEqualTo(1);
    }

    @Test
    void aLostReadResponseIsAskedForAgainFromTheGapOnly() {
        StageQp q = rc(7, 7);
        SoftMr local = memory.region(3 * 1024, AccessFlags.LOCAL_WRITE);
        q.qp.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local)).rdma(0x7000_0000L, 0xABC));
        assertThat(work(q)).singleElement().satisfies(p -> {
            assertThat(p.opcode().code()).isEqualTo(READ_REQUEST);
            assertThat(p.bth().psn()).isEqualTo(S);
            assertThat(p.reth().dmaLength()).isEqualTo(3 * 1024);
        });
        respond(q, Requests.of(READ_RESPONSE_FIRST, S).payload(1024).aeth(Aeth.ACK_SYNDROME, 1));
        respond(q, Requests.of(READ_RESPONSE_LAST, S + 2).payload(1024).aeth(Aeth.ACK_SYNDROME, 1)); // S + 1 lost
        assertThat(work(q)).singleElement().satisfies(p -> {
            assertThat(p.bth().psn()).isEqualTo(S + 1);
            assertThat(p.reth().va()).isEqualTo(0x7000_0000L + 1024);
            assertThat(p.reth().dmaLength()).isEqualTo(2 * 1024);
        });
        respond(q, Requests.of(READ_RESPONSE_FIRST, S + 1).payload(1024).aeth(Aeth.ACK_SYNDROME, 1));
        respond(q, Requests.of(READ_RESPONSE_LAST, S + 2).payload(1024).aeth(Aeth.ACK_SYNDROME, 1));
        assertThat(q.sendCq.completions).singleElement().satisfies(wc -> {
            assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc.byteLen).isEqualTo(3 * 1024);
        });
        assertThat(local.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 3 * 1024 - 1)).isEqualTo((byte) 0x5A);
    }

    @Test
    void aResponseArrivingWhileARetryIsAskedForIsStaleAsAfterARewind() {
        StageQp q = rc(7, 7);
        SoftMr local = memory.region(3 * 1024, AccessFlags.LOCAL_WRITE);
        q.qp.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local)).rdma(0x7000_0000L, 0xABC));
        work(q);
        respond(q, Requests.of(READ_RESPONSE_FIRST, S).payload(1024).aeth(Aeth.ACK_SYNDROME, 1));
        respond(q, Requests.of(READ_RESPONSE_LAST, S + 2).payload(1024).aeth(Aeth.ACK_SYNDROME, 1));
        long drops = q.count(QpCounter.COMPLETER_DROPS);
        respond(q, Requests.of(READ_RESPONSE_MIDDLE, S + 1).payload(1024)); // late, before the requester ran
        assertThat(q.count(QpCounter.COMPLETER_DROPS)).isEqualTo(drops + 1);
        assertThat(work(q)).singleElement().satisfies(p -> assertThat(p.bth().psn()).isEqualTo(S + 1));
    }

    @Test
    void anAckPastAnAskedForRetryMovesTheRetryOn() {
        StageQp q = rc(7, 7);
        for (int i = 0; i < 4; i++) {
            postSend(q, i, 8);
        }
        work(q);
        ack(q, Aeth.NAK_PSN_SEQUENCE_ERROR, S + 1);
        ack(q, Aeth.ACK_SYNDROME, S + 2); // the resent packets were not needed after all
        assertThat(q.qp.req.retryPsn).isEqualTo(S + 3);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S + 3);
        assertThat(q.sendCq.completions).extracting(wc -> wc.wrId).containsExactly(0L, 1L, 2L);
    }

    @Test
    void responsesForPsnsNeverSentAreDroppedAndCounted() {
        StageQp q = rc(7, 7);
        postSend(q, 1, 8);
        work(q);
        ack(q, Aeth.ACK_SYNDROME, S + 1);
        assertThat(q.sendCq.completions).isEmpty();
        assertThat(q.count(QpCounter.UNSENT_PSN_RESPONSES)).isEqualTo(1);
        assertThat(q.count(QpCounter.COMPLETER_DROPS)).isEqualTo(1);
        assertThat(q.count(QpCounter.ACKS_RCVD)).isZero();
    }

    @Test
    void aReadResponseOfTheWrongLengthIsABadResponse() {
        StageQp q = rc(7, 7);
        SoftMr local = memory.region(2048, AccessFlags.LOCAL_WRITE);
        q.qp.postSend(new SendWorkRequest().wrId(9).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                .sg(Sge.of(local)).rdma(0x7000_0000L, 0xABC));
        work(q);
        respond(q, Requests.of(READ_RESPONSE_FIRST, S).payload(512).aeth(Aeth.ACK_SYNDROME, 1));
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.BAD_RESP_ERR);
        assertThat(q.qp.state()).isEqualTo(QpState.ERR);
    }

    @Test
    void settingSqPsnFirstCarriesOutARetryAskedForTheOldPsns() {
        StageQp q = rc(7, 7);
        postSend(q, 1, 2 * 1024);
        work(q);
        ack(q, Aeth.NAK_PSN_SEQUENCE_ERROR, S + 1);
        QpAttr a = new QpAttr().sqPsn(0x900);
        q.qp.modify(a, a.mask());
        assertThat(q.qp.req.needRetry).isFalse();
        assertThat(q.qp.sq.next).as("rewound before the new PSN was set").isZero();
        assertThat(q.qp.req.reqPsn).isEqualTo(0x900);
        assertThat(q.qp.comp.compPsn).isEqualTo(0x900);
    }

    /** The completer's table: the status and counter of every outcome, as the completer behaved before it. */
    @Test
    void eachOutcomeCarriesTheStatusAndCounterTheCompleterUsed() {
        Map<CompleterOutcome, String> expected = new EnumMap<>(CompleterOutcome.class);
        expected.put(CompleterOutcome.NOT_READY, "- COMPLETER_DROPS");
        expected.put(CompleterOutcome.UNSENT_PSN, "- COMPLETER_DROPS");
        expected.put(CompleterOutcome.RESERVED_SYNDROME, "- COMPLETER_DROPS");
        expected.put(CompleterOutcome.ACK, "- -");
        expected.put(CompleterOutcome.READ_RESPONSE, "- -");
        expected.put(CompleterOutcome.ATOMIC_ACK, "- -");
        expected.put(CompleterOutcome.PSN_SEQUENCE_NAK, "- SEQ_NAKS_RCVD");
        expected.put(CompleterOutcome.RNR_NAK, "- RNR_NAKS_RCVD");
        expected.put(CompleterOutcome.NAK_INVALID_REQUEST, "REM_INV_REQ_ERR -");
        expected.put(CompleterOutcome.NAK_REMOTE_ACCESS_ERROR, "REM_ACCESS_ERR -");
        expected.put(CompleterOutcome.NAK_REMOTE_OPERATIONAL_ERROR, "REM_OP_ERR -");
        expected.put(CompleterOutcome.RETRY_EXCEEDED, "RETRY_EXC_ERR RETRY_EXCEEDED");
        expected.put(CompleterOutcome.RNR_RETRY_EXCEEDED, "RNR_RETRY_EXC_ERR RNR_RETRY_EXCEEDED");
        expected.put(CompleterOutcome.BAD_RESPONSE, "BAD_RESP_ERR -");
        expected.put(CompleterOutcome.LOCAL_MEMORY_GONE, "LOC_PROT_ERR -");
        for (CompleterOutcome o : CompleterOutcome.values()) {
            String got = (o.status == null ? "-" : o.status.name()) + " " + (o.counter == null ? "-" : o.counter.name());
            assertThat(got).as(o.name()).isEqualTo(expected.get(o));
        }
    }

    @Test
    void everyAethSyndromeNamesOneOutcome() {
        assertThat(CompleterOutcome.ofSyndrome(Aeth.ACK_SYNDROME)).isEqualTo(CompleterOutcome.ACK);
        assertThat(CompleterOutcome.ofSyndrome(0x00)).isEqualTo(CompleterOutcome.ACK);
        assertThat(CompleterOutcome.ofSyndrome(Aeth.rnrNakSyndrome(5))).isEqualTo(CompleterOutcome.RNR_NAK);
        assertThat(CompleterOutcome.ofSyndrome(0x60)).isEqualTo(CompleterOutcome.PSN_SEQUENCE_NAK);
        assertThat(CompleterOutcome.ofSyndrome(0x61)).isEqualTo(CompleterOutcome.NAK_INVALID_REQUEST);
        assertThat(CompleterOutcome.ofSyndrome(0x62)).isEqualTo(CompleterOutcome.NAK_REMOTE_ACCESS_ERROR);
        assertThat(CompleterOutcome.ofSyndrome(0x63)).isEqualTo(CompleterOutcome.NAK_REMOTE_OPERATIONAL_ERROR);
        assertThat(CompleterOutcome.ofSyndrome(0x7F)).isEqualTo(CompleterOutcome.NAK_REMOTE_OPERATIONAL_ERROR);
        assertThat(CompleterOutcome.ofSyndrome(0x40)).isEqualTo(CompleterOutcome.RESERVED_SYNDROME);
        for (CompleterOutcome o : CompleterOutcome.values()) {
            assertThat(o.endsQp()).as(o.name()).isEqualTo(o.name().startsWith("NAK_") || o.name().endsWith("_EXCEEDED")
                    || o == CompleterOutcome.BAD_RESPONSE || o == CompleterOutcome.LOCAL_MEMORY_GONE);
        }
    }
}
