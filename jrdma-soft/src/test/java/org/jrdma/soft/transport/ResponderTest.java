package org.jrdma.soft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.jrdma.soft.transport.Requests.*;

import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.StageMemory;
import org.jrdma.soft.engine.CoalescingAcks;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The responder built alone (rxe_resp.c's behaviour, item 7 of issue 14): requests go in as
 * the engine would hand them over, engine passes are {@code beginPass}/{@code flushAcks}, and
 * what it sends is decoded from the fake port.
 */
class ResponderTest {
    private static final int E = StageQp.RQ_PSN;

    private StageMemory memory;
    private StageQp q;
    private FakePort port;
    private Responder responder;

    @BeforeEach
    void build() {
        memory = new StageMemory("responder");
        q = new StageQp(memory, QpType.RC);
        port = new FakePort();
        responder = new Responder(new CoalescingAcks(port));
    }

    @AfterEach
    void close() {
        memory.close();
    }

    private void receive(Requests r) {
        Requests.Request req = r.build();
        responder.onRequest(q.qp, req.pkt(), req.data());
    }

    @Test
    void aGapIsNakedOnceWithTheExpectedPsnUntilAnInOrderPacketArrives() {
        q.postRecv(1, 64);
        q.postRecv(2, 64);
        receive(Requests.of(SEND_ONLY, E + 2).payload(8));
        receive(Requests.of(SEND_ONLY, E + 3).payload(8));
        List<RxPacket> naks = port.drain();
        assertThat(naks).singleElement().satisfies(p -> {
            assertThat(p.aeth().syndrome()).isEqualTo(Aeth.NAK_PSN_SEQUENCE_ERROR);
            assertThat(p.bth().psn()).isEqualTo(E);
        });
        assertThat(q.count(QpCounter.OUT_OF_SEQUENCE)).isEqualTo(2);
        assertThat(q.count(QpCounter.SEQ_NAKS_SENT)).isEqualTo(1);

        receive(Requests.of(SEND_ONLY, E).payload(8)); // the go-back-N resend: executes, re-arms the NAK
        receive(Requests.of(SEND_ONLY, E + 4).payload(8));
        responder.flushAllAcks();
        List<RxPacket> out = port.drain();
        // The NAK of the new gap first sends the ACK held for E (responses in PSN order).
        assertThat(out).extracting(p -> p.aeth().syndrome(), p -> p.bth().psn()).containsExactly(
                tuple(Aeth.ACK_SYNDROME, E),
                tuple(Aeth.NAK_PSN_SEQUENCE_ERROR, E + 1));
        assertThat(q.recvCq.statuses()).containsExactly(WcStatus.SUCCESS);
    }

    @Test
    void aDuplicateSendIsReAckedAndNotExecutedAgain() {
        q.postRecv(1, 64);
        q.postRecv(2, 64);
        receive(Requests.of(SEND_ONLY, E).payload(8));
        receive(Requests.of(SEND_ONLY, E).payload(8));
        responder.flushAllAcks();
        assertThat(q.recvCq.statuses()).containsExactly(WcStatus.SUCCESS);
        assertThat(q.qp.recvQueueDepth()).isEqualTo(1);
        assertThat(port.drain()).singleElement().satisfies(p -> {
            assertThat(p.aeth().syndrome()).isEqualTo(Aeth.ACK_SYNDROME);
            assertThat(p.bth().psn()).isEqualTo(E);
        });
        assertThat(q.count(QpCounter.DUPLICATE_REQUESTS)).isEqualTo(1);
    }

    /**
     * The coalescing rule (CoalescingAcks): ACKs received in one pass become one, for the
     * highest PSN, sent at the end of the next pass; a NAK first sends the held ACK.
     */
    @Test
    void acksOfOnePassGoOutAsOneAtTheEndOfTheNextAndANakFlushesThemFirst() {
        for (int i = 0; i < 4; i++) {
            q.postRecv(i, 64);
        }
        responder.beginPass();
        for (int i = 0; i < 3; i++) {
            receive(Requests.of(SEND_ONLY, E + i).payload(8));
        }
        responder.flushAcks();
        assertThat(port.drain()).as("held through the pass that received them").isEmpty();
        assertThat(responder.acksHeld()).isTrue();
        responder.beginPass();
        responder.flushAcks();
        assertThat(port.drain()).singleElement().satisfies(p -> assertThat(p.bth().psn()).isEqualTo(E + 2));
        assertThat(q.count(QpCounter.ACKS_COALESCED)).isEqualTo(2);
        assertThat(q.count(QpCounter.ACKS_SENT)).isEqualTo(1);

        responder.beginPass();
        receive(Requests.of(SEND_ONLY, E + 3).payload(8));
        receive(Requests.of(SEND_ONLY, E + 9).payload(8)); // a gap: the NAK must follow the ACK of E + 3
        assertThat(port.drain()).extracting(p -> p.aeth().syndrome(), p -> p.bth().psn()).containsExactly(
                tuple(Aeth.ACK_SYNDROME, E + 3),
                tuple(Aeth.NAK_PSN_SEQUENCE_ERROR, E + 4));
    }

    @Test
    void aDuplicateReadIsReplayedFromTheGapReReadingMemory() {
        SoftMr mr = memory.region(4096, AccessFlags.REMOTE_READ);
        mr.segment().fill((byte) 1);
        receive(Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 4096));
        List<RxPacket> first = port.drain();
        assertThat(first).extracting(p -> p.opcode().code(), p -> p.bth().psn()).containsExactly(
                tuple(READ_RESPONSE_FIRST, E),
                tuple(READ_RESPONSE_MIDDLE, E + 1),
                tuple(READ_RESPONSE_MIDDLE, E + 2),
                tuple(READ_RESPONSE_LAST, E + 3));
        assertThat(q.qp.resp.ePsn).as("a READ takes a PSN per response").isEqualTo(E + 4);

        mr.segment().fill((byte) 2);
        receive(Requests.of(READ_REQUEST, E + 2).reth(mr.addr() + 2048, mr.rkey(), 2048)); // the requester lost E + 2
        List<RxPacket> replay = port.drain();
        assertThat(replay).extracting(p -> p.opcode().code(), p -> p.bth().psn()).containsExactly(
                tuple(READ_RESPONSE_FIRST, E + 2),
                tuple(READ_RESPONSE_LAST, E + 3));
        RxPacket p = replay.get(0);
        assertThat(p.buffer().get(p.payloadOffset())).as("memory is read again, not cached").isEqualTo((byte) 2);
        assertThat(q.qp.resp.ePsn).isEqualTo(E + 4);
        assertThat(q.qp.state()).isEqualTo(QpState.RTS);
    }

    @Test
    void aDuplicateReadOutsideTheOriginalRangeIsDropped() {
        SoftMr mr = memory.region(4096, AccessFlags.REMOTE_READ);
        receive(Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 1024));
        port.drain();
        receive(Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 2048));
        assertThat(port.drain()).isEmpty();
        assertThat(q.count(QpCounter.DUPLICATES_DROPPED)).isEqualTo(1);
    }

    @Test
    void aDuplicateAtomicGetsTheSavedValueAndRunsOnce() {
        SoftMr mr = memory.region(8, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC);
        mr.segment().set(ValueLayout.JAVA_LONG, 0, 40);
        Requests add = Requests.of(FETCH_ADD, E).atomic(mr.addr(), mr.rkey(), 2, 0);
        receive(add);
        receive(add);
        assertThat(port.drain()).extracting(p -> p.opcode().code(), p -> p.atomicAckEth().originalValue())
                .containsExactly(tuple(ATOMIC_ACKNOWLEDGE, 40L),
                        tuple(ATOMIC_ACKNOWLEDGE, 40L));
        assertThat(mr.segment().get(ValueLayout.JAVA_LONG, 0)).isEqualTo(42);
    }

    @Test
    void aReadReplyLongerThanTheFirstBurstIsContinuedByDoWork() {
        SoftMr mr = memory.region(20 * 1024, AccessFlags.REMOTE_READ);
        receive(Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 20 * 1024));
        assertThat(port.drain()).hasSize(16);
        assertThat(q.qp.readReplyInProgress()).isTrue();
        assertThat(responder.doWork(q.qp, 3)).isEqualTo(3);
        assertThat(responder.doWork(q.qp, 3)).isEqualTo(1);
        assertThat(port.drain()).extracting(p -> p.bth().psn()).containsExactly(E + 16, E + 17, E + 18, E + 19);
        assertThat(q.qp.readReplyInProgress()).isFalse();
    }

    @Test
    void aZeroLengthWriteSkipsTheRkeyCheck() {
        receive(Requests.of(RDMA_WRITE_ONLY, E).reth(0, 0x1234, 0));
        responder.flushAllAcks();
        assertThat(port.drain()).singleElement().satisfies(p -> assertThat(p.aeth().syndrome()).isEqualTo(Aeth.ACK_SYNDROME));
        assertThat(q.qp.state()).isEqualTo(QpState.RTS);
    }
}
