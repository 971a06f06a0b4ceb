package org.jrdma.soft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.soft.transport.Requests.*;
import static org.jrdma.soft.transport.ResponderOutcome.*;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.StageMemory;
import org.jrdma.soft.engine.CoalescingAcks;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.soft.wire.Transport;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AsyncEventType;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Walks {@link ErrorTable} row by row: for each outcome on each transport, a request that
 * produces it reaches a responder built alone on a QP in RTS, and what comes out — the
 * ACKNOWLEDGE on the wire (decoded), the counter, the UC message drop, the receive
 * completions, the asynchronous event and the QP's state — is what the row says. A row
 * without a case here, or a case without a row, fails the walk.
 *
 * <p>A row's receive status applies to a receive in progress; where none can be (a MIDDLE
 * without a FIRST, a READ, an atomic, a WRITE without immediate), the case has none and the
 * walk checks that nothing but the flush of the posted receives completes.
 */
class ErrorTableTest {
    private static final RoceEndpoint PEER = RoceEndpoint.of(new java.net.InetSocketAddress("127.0.0.1", 4791));
    private static final RoceEndpoint LOCAL = RoceEndpoint.of(new java.net.InetSocketAddress("127.0.0.2", 4791));
    private static StageMemory memory;

    @BeforeAll
    static void open() {
        memory = new StageMemory("errtable");
    }

    @AfterAll
    static void close() {
        memory.close();
    }

    /** One QP and its stages, and what one trigger packet made them do. */
    static final class Bench {
        final StageQp q;
        final FakePort port = new FakePort();
        final Responder responder = new Responder(new CoalescingAcks(port));
        final UdResponder udResponder = new UdResponder();
        boolean receiveInProgress;
        List<RxPacket> sent;
        Map<QpCounter, Long> before;
        int recvBefore;
        int eventsBefore;
        int ePsnBefore;
        int triggerPsn;

        Bench(QpType type, int access, int maxDestRdAtomic) {
            q = new StageQp(memory, type, access, maxDestRdAtomic, 14, 7, 7);
        }

        /** A packet before the trigger (it starts a message, or executes what the trigger repeats). */
        Bench prepare(Requests r) {
            Requests.Request req = r.build();
            responder.onRequest(q.qp, req.pkt(), req.data());
            responder.flushAllAcks();
            port.drain();
            return this;
        }

        private void snapshot(int psn) {
            before = new EnumMap<>(QpCounter.class);
            for (QpCounter c : QpCounter.values()) {
                before.put(c, q.count(c));
            }
            recvBefore = q.recvCq.completions.size();
            eventsBefore = q.events.size();
            ePsnBefore = q.qp.resp.ePsn;
            triggerPsn = psn;
        }

        void trigger(Requests r) {
            Requests.Request req = r.build();
            snapshot(req.pkt().bth().psn());
            if (q.qp.datagram) {
                udResponder.onDatagram(q.qp, req.pkt(), req.data(), PEER, LOCAL, 0, 0x4000,
                        req.pkt().length() + 8);
            } else {
                responder.onRequest(q.qp, req.pkt(), req.data());
            }
            responder.flushAllAcks();
            sent = port.drain();
        }

        /** The trigger is the engine continuing the READ reply in progress. */
        void triggerReply() {
            snapshot(q.qp.resp.resources.replyPsn);
            responder.doWork(q.qp, 16);
            responder.flushAllAcks();
            sent = port.drain();
        }

        long delta(QpCounter c) {
            return q.count(c) - before.get(c);
        }

        List<WcStatus> recvStatuses() {
            return q.recvCq.statuses().subList(recvBefore, q.recvCq.completions.size());
        }

        List<AsyncEventType> events() {
            return q.events.subList(eventsBefore, q.events.size());
        }
    }

    private record Case(QpType type, int access, int maxDestRdAtomic, Consumer<Bench> run) {
    }

    private static Case rc(Consumer<Bench> run) {
        return new Case(QpType.RC, StageQp.REMOTE_ALL, 4, run);
    }

    private static Case uc(Consumer<Bench> run) {
        return new Case(QpType.UC, StageQp.REMOTE_ALL, 0, run);
    }

    private static Case ud(Consumer<Bench> run) {
        return new Case(QpType.UD, 0, 0, run);
    }

    private static final int E = StageQp.RQ_PSN;
    private static final int BAD_RKEY = 0x1234;

    private static Map<Transport, Map<ResponderOutcome, Case>> cases() {
        Map<ResponderOutcome, Case> rc = new EnumMap<>(ResponderOutcome.class);
        rc.put(PSN_OUT_OF_SEQUENCE, rc(b -> {
            b.q.postRecv(1, 64);
            b.trigger(Requests.of(SEND_ONLY, E + 5).payload(8));
        }));
        rc.put(DUPLICATE, rc(b -> b.trigger(Requests.of(SEND_ONLY, Psn.add(E, -1)).payload(8))));
        rc.put(DUPLICATE_READ, rc(b -> {
            SoftMr mr = memory.region(4096, AccessFlags.REMOTE_READ);
            Requests read = Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 64);
            b.prepare(read).trigger(read);
        }));
        rc.put(DUPLICATE_ATOMIC, rc(b -> {
            SoftMr mr = memory.region(8, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_ATOMIC);
            Requests add = Requests.of(FETCH_ADD, E).atomic(mr.addr(), mr.rkey(), 5, 0);
            b.prepare(add).trigger(add);
        }));
        rc.put(MISSING_FIRST, rc(b -> {
            b.q.postRecv(1, 4096);
            b.trigger(Requests.of(SEND_MIDDLE, E).payload(1024));
        }));
        rc.put(MISSING_LAST, rc(b -> {
            b.q.postRecv(1, 4096);
            b.q.postRecv(2, 4096);
            b.prepare(Requests.of(SEND_FIRST, E).payload(1024)).receiveInProgress = true;
            b.trigger(Requests.of(SEND_ONLY, E + 1).payload(8));
        }));
        rc.put(UNSUPPORTED_OPCODE, new Case(QpType.RC, AccessFlags.REMOTE_READ, 4,
                b -> b.trigger(Requests.of(RDMA_WRITE_ONLY, E).reth(0x1000, BAD_RKEY, 8).payload(8))));
        rc.put(TOO_MANY_RDMA_ATOMIC, new Case(QpType.RC, StageQp.REMOTE_ALL, 0,
                b -> b.trigger(Requests.of(READ_REQUEST, E).reth(0x1000, BAD_RKEY, 64))));
        rc.put(RNR, rc(b -> b.trigger(Requests.of(SEND_ONLY, E).payload(8))));
        rc.put(MALFORMED_WQE, rc(b -> {
            b.q.postBadRecv(1);
            b.q.postRecv(2, 64);
            b.receiveInProgress = true;
            b.trigger(Requests.of(SEND_ONLY, E).payload(8));
        }));
        rc.put(LENGTH, rc(b -> {
            b.q.postRecv(1, 4096);
            b.receiveInProgress = true;
            b.trigger(Requests.of(SEND_FIRST, E).payload(100));
        }));
        rc.put(RECV_TOO_SHORT, rc(b -> {
            b.q.postRecv(1, 0);
            b.receiveInProgress = true;
            b.trigger(Requests.of(SEND_ONLY, E).payload(8));
        }));
        rc.put(MISALIGNED_ATOMIC, rc(b -> b.trigger(Requests.of(FETCH_ADD, E).atomic(0x1003, BAD_RKEY, 1, 0))));
        rc.put(RKEY_VIOLATION, rc(b -> {
            // A WRITE with immediate takes its receive before the rkey check: it is flushed.
            b.q.postRecv(1, 64);
            b.receiveInProgress = true;
            b.trigger(Requests.of(RDMA_WRITE_ONLY_WITH_IMM, E).reth(0x1000, BAD_RKEY, 8).payload(8).imm(7));
        }));
        rc.put(REPLY_RKEY_VIOLATION, rc(b -> {
            SoftMr mr = memory.region(32 * 1024, AccessFlags.REMOTE_READ);
            b.prepare(Requests.of(READ_REQUEST, E).reth(mr.addr(), mr.rkey(), 32 * 1024)); // 16 of 32 responses
            mr.close();
            b.triggerReply();
        }));
        rc.put(INVALIDATE_RKEY, rc(b -> {
            b.q.postRecv(1, 64);
            b.receiveInProgress = true;
            b.trigger(Requests.of(SEND_ONLY_WITH_INVALIDATE, E).payload(8).imm(BAD_RKEY));
        }));

        Map<ResponderOutcome, Case> uc = new EnumMap<>(ResponderOutcome.class);
        uc.put(PSN_OUT_OF_SEQUENCE, uc(b -> {
            b.q.postRecv(1, 4096);
            b.trigger(Requests.of(UC | SEND_MIDDLE, E + 3).payload(1024));
        }));
        uc.put(MISSING_FIRST, uc(b -> b.trigger(Requests.of(UC | SEND_MIDDLE, E).payload(1024))));
        uc.put(MISSING_LAST, uc(b -> {
            b.q.postRecv(1, 4096);
            b.prepare(Requests.of(UC | SEND_FIRST, E).payload(1024)).receiveInProgress = true;
            b.trigger(Requests.of(UC | SEND_ONLY, E + 1).payload(8));
        }));
        uc.put(UNSUPPORTED_OPCODE, new Case(QpType.UC, 0, 0,
                b -> b.trigger(Requests.of(UC | RDMA_WRITE_ONLY, E).reth(0x1000, BAD_RKEY, 8).payload(8))));
        uc.put(LENGTH, uc(b -> {
            b.q.postRecv(1, 4096);
            b.receiveInProgress = true;
            b.trigger(Requests.of(UC | SEND_FIRST, E).payload(100));
        }));
        uc.put(RECV_TOO_SHORT, uc(b -> {
            b.q.postRecv(1, 0);
            b.receiveInProgress = true;
            b.trigger(Requests.of(UC | SEND_ONLY, E).payload(8));
        }));
        uc.put(RNR, uc(b -> b.trigger(Requests.of(UC | SEND_ONLY, E).payload(8))));
        uc.put(MALFORMED_WQE, uc(b -> {
            b.q.postBadRecv(1);
            b.receiveInProgress = true;
            b.trigger(Requests.of(UC | SEND_ONLY, E).payload(8));
        }));
        uc.put(RKEY_VIOLATION, uc(b -> b.trigger(Requests.of(UC | RDMA_WRITE_ONLY, E).reth(0x1000, BAD_RKEY, 8).payload(8))));

        Map<ResponderOutcome, Case> ud = new EnumMap<>(ResponderOutcome.class);
        ud.put(QKEY_VIOLATION, ud(b -> {
            b.q.postRecv(1, 4096);
            b.trigger(Requests.of(UD_SEND_ONLY, 0).payload(8).deth(StageQp.QKEY + 1, 7));
        }));
        ud.put(RNR, ud(b -> b.trigger(Requests.of(UD_SEND_ONLY, 0).payload(8).deth(StageQp.QKEY, 7))));
        ud.put(MALFORMED_WQE, ud(b -> {
            b.q.postBadRecv(1);
            b.receiveInProgress = true;
            b.trigger(Requests.of(UD_SEND_ONLY, 0).payload(8).deth(StageQp.QKEY, 7));
        }));
        ud.put(RECV_TOO_SHORT, ud(b -> {
            b.q.postRecv(1, 16); // less than the 40-byte GRH area plus the payload
            b.receiveInProgress = true;
            b.trigger(Requests.of(UD_SEND_ONLY, 0).payload(8).deth(StageQp.QKEY, 7));
        }));
        return Map.of(Transport.RC, rc, Transport.UC, uc, Transport.UD, ud);
    }

    /**
     * The table as the provider behaved before it was a table, written out independently of
     * {@link ErrorTable}: a row changed there, or a behaviour changed in the responder, fails
     * here. Columns: transport, outcome, response, counter, UC drops the message, receive
     * status, event, next state ("-": none / unchanged).
     */
    static final String EXPECTED = """
            RC PSN_OUT_OF_SEQUENCE  NAK_PSN_SEQUENCE_ERROR       OUT_OF_SEQUENCE      -    -               -             -
            RC DUPLICATE            ACK                          DUPLICATE_REQUESTS   -    -               -             -
            RC DUPLICATE_READ       REPLAY                       DUPLICATE_REQUESTS   -    -               -             -
            RC DUPLICATE_ATOMIC     REPLAY                       DUPLICATE_REQUESTS   -    -               -             -
            RC MISSING_FIRST        NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC MISSING_LAST         NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC UNSUPPORTED_OPCODE   NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC TOO_MANY_RDMA_ATOMIC NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC RNR                  RNR_NAK                      RNR_NAKS_SENT        -    -               -             -
            RC MALFORMED_WQE        NAK_REMOTE_OPERATIONAL_ERROR -                    -    LOC_PROT_ERR    -             ERR
            RC LENGTH               NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC RECV_TOO_SHORT       NAK_INVALID_REQUEST          -                    -    LOC_LEN_ERR     QP_REQ_ERR    ERR
            RC MISALIGNED_ATOMIC    NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            RC RKEY_VIOLATION       NAK_REMOTE_ACCESS_ERROR      REMOTE_ACCESS_ERRORS -    -               QP_ACCESS_ERR ERR
            RC REPLY_RKEY_VIOLATION NAK_REMOTE_ACCESS_ERROR      REMOTE_ACCESS_ERRORS -    -               -             ERR
            RC INVALIDATE_RKEY      NAK_INVALID_REQUEST          -                    -    REM_INV_REQ_ERR QP_REQ_ERR    ERR
            UC PSN_OUT_OF_SEQUENCE  NONE                         OUT_OF_SEQUENCE      drop -               -             -
            UC MISSING_FIRST        NONE                         -                    drop -               -             -
            UC MISSING_LAST         NONE                         -                    drop -               -             -
            UC UNSUPPORTED_OPCODE   NONE                         -                    drop -               -             -
            UC RNR                  NONE                         -                    drop -               -             -
            UC MALFORMED_WQE        NAK_REMOTE_OPERATIONAL_ERROR -                    -    LOC_PROT_ERR    -             ERR
            UC LENGTH               NONE                         -                    drop -               -             -
            UC RECV_TOO_SHORT       NONE                         -                    drop -               -             -
            UC RKEY_VIOLATION       NONE                         REMOTE_ACCESS_ERRORS drop -               -             -
            UD RNR                  NONE                         UD_DATAGRAMS_DROPPED -    -               -             -
            UD MALFORMED_WQE        NONE                         -                    -    LOC_PROT_ERR    -             -
            UD RECV_TOO_SHORT       NONE                         -                    -    LOC_LEN_ERR     -             -
            UD QKEY_VIOLATION       NONE                         UD_DATAGRAMS_DROPPED -    -               -             -
            """;

    /** {@link #EXPECTED} parsed: transport → outcome → row. */
    static Map<Transport, Map<ResponderOutcome, ErrorTable.Row>> expected() {
        Map<Transport, Map<ResponderOutcome, ErrorTable.Row>> all = new EnumMap<>(Transport.class);
        for (Transport t : List.of(Transport.RC, Transport.UC, Transport.UD)) {
            all.put(t, new EnumMap<>(ResponderOutcome.class));
        }
        EXPECTED.lines().map(String::trim).filter(l -> !l.isEmpty()).forEach(line -> {
            String[] f = line.split("\\s+");
            ErrorTable.Row row = new ErrorTable.Row(ErrorTable.Response.valueOf(f[2]),
                    f[3].equals("-") ? null : QpCounter.valueOf(f[3]), f[4].equals("drop"),
                    f[5].equals("-") ? null : WcStatus.valueOf(f[5]),
                    f[6].equals("-") ? null : AsyncEventType.valueOf(f[6]),
                    f[7].equals("-") ? null : QpState.valueOf(f[7]));
            all.get(Transport.valueOf(f[0])).put(ResponderOutcome.valueOf(f[1]), row);
        });
        return all;
    }

    @Test
    void theTableIsTheBehaviourWrittenDown() {
        assertThat(ErrorTable.rows()).isEqualTo(expected());
    }

    @Test
    void everyRowHasACaseAndEveryCaseARow() {
        Map<Transport, Map<ResponderOutcome, Case>> cases = cases();
        ErrorTable.rows().forEach((t, rows) -> assertThat(cases.get(t).keySet()).as(t.name()).isEqualTo(rows.keySet()));
        for (ResponderOutcome o : ResponderOutcome.values()) {
            boolean anywhere = Stream.of(Transport.RC, Transport.UC, Transport.UD).anyMatch(t -> ErrorTable.applies(o, t));
            assertThat(anywhere).as("%s has a row on some transport", o).isEqualTo(o != EXECUTE);
        }
    }

    @TestFactory
    Stream<DynamicTest> eachRowIsWhatTheResponderDoes() {
        List<DynamicTest> tests = new ArrayList<>();
        Map<Transport, Map<ResponderOutcome, Case>> cases = cases();
        // Against the written-down rows, so a row changed in ErrorTable and in the behaviour alike still fails.
        expected().forEach((t, rows) -> rows.forEach((outcome, row) -> tests.add(DynamicTest.dynamicTest(
                t + " " + outcome + " → " + row, () -> walk(row, cases.get(t).get(outcome))))));
        return tests.stream();
    }

    private static void walk(ErrorTable.Row row, Case c) {
        Bench b = new Bench(c.type(), c.access(), c.maxDestRdAtomic());
        c.run().accept(b);
        assertThat(b.sent).as("the trigger ran").isNotNull();
        checkResponse(row, b);
        if (row.counter() != null) {
            assertThat(b.delta(row.counter())).as("counter %s", row.counter()).isEqualTo(1);
        }
        assertThat(b.q.qp.resp.ucDropping).as("UC drops the rest of the message").isEqualTo(row.dropsMessage());
        assertThat(b.delta(QpCounter.UC_MESSAGES_DROPPED)).isEqualTo(row.dropsMessage() ? 1 : 0);
        checkReceives(row, b);
        assertThat(b.events()).as("async events").isEqualTo(row.event() == null ? List.of() : List.of(row.event()));
        assertThat(b.q.qp.state()).isEqualTo(row.nextState() == null ? QpState.RTS : row.nextState());
    }

    private static void checkResponse(ErrorTable.Row row, Bench b) {
        switch (row.response()) {
            case NONE -> assertThat(b.sent).as("nothing sent").isEmpty();
            case REPLAY -> {
                assertThat(b.sent).isNotEmpty();
                RxPacket first = b.sent.get(0);
                int opcode = first.opcode().code();
                assertThat(opcode == READ_RESPONSE_ONLY || opcode == READ_RESPONSE_FIRST || opcode == ATOMIC_ACKNOWLEDGE)
                        .as("a READ response or an atomic ACK, opcode 0x%02x", opcode).isTrue();
                assertThat(first.bth().psn()).isEqualTo(b.triggerPsn);
            }
            default -> {
                assertThat(b.sent).as("one ACKNOWLEDGE").hasSize(1);
                RxPacket ack = b.sent.get(0);
                assertThat(ack.opcode().code()).isEqualTo(ACKNOWLEDGE);
                int syndrome = row.response() == ErrorTable.Response.RNR_NAK
                        ? Aeth.rnrNakSyndrome(StageQp.MIN_RNR_TIMER) : row.response().syndrome;
                assertThat(ack.aeth().syndrome()).as("AETH syndrome").isEqualTo(syndrome);
                int psn = switch (row.response()) {
                    case ACK -> Psn.add(b.ePsnBefore, -1);
                    case NAK_PSN_SEQUENCE_ERROR -> b.ePsnBefore;
                    default -> b.triggerPsn;
                };
                assertThat(ack.bth().psn()).as("ACKNOWLEDGE PSN").isEqualTo(psn);
                assertThat(ack.bth().destQp()).isEqualTo(StageQp.PEER_QPN);
            }
        }
    }

    /** The receive in progress completes as the row says (or is flushed with the QP); the rest are flushed on ERR. */
    private static void checkReceives(ErrorTable.Row row, Bench b) {
        List<WcStatus> got = b.recvStatuses();
        boolean toErr = row.nextState() == QpState.ERR;
        List<WcStatus> expected = new ArrayList<>();
        if (b.receiveInProgress && row.recvStatus() != null) {
            expected.add(row.recvStatus());
        }
        while (expected.size() < got.size() && toErr) {
            expected.add(WcStatus.WR_FLUSH_ERR);
        }
        assertThat(got).as("receive completions").isEqualTo(expected);
        if (toErr) {
            assertThat(b.q.qp.recvQueueDepth()).as("every receive completed").isZero();
        }
    }
}
