package org.jrdma.soft.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.soft.transport.Requests.*;

import java.util.List;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.StageMemory;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The requester built alone (rxe_req.c): what it sends for what is posted, and when it waits. */
class RequesterTest {
    private static final int S = StageQp.SQ_PSN;

    private StageMemory memory;
    private FakePort port;
    private Requester requester;
    private Completer completer;

    @BeforeEach
    void build() {
        memory = new StageMemory("requester");
        port = new FakePort();
        requester = new Requester(port);
        completer = new Completer(new StallWarnings("stage-test"));
    }

    @AfterEach
    void close() {
        memory.close();
    }

    private SendWorkRequest send(long wrId, int bytes) {
        SoftMr mr = memory.region(Math.max(8, bytes), AccessFlags.LOCAL_WRITE);
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(Sge.of(mr, 0, bytes));
    }

    private SendWorkRequest read(long wrId) {
        SoftMr mr = memory.region(64, AccessFlags.LOCAL_WRITE);
        return new SendWorkRequest().wrId(wrId).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED).sg(Sge.of(mr))
                .rdma(0x7000_0000L, 0xABC);
    }

    private List<RxPacket> work(StageQp q) {
        requester.doWork(q.qp, 0, 256);
        return port.drain();
    }

    @Test
    void ucSendsCarryNoAckReqAndCompleteWhenSent() {
        StageQp q = new StageQp(memory, QpType.UC);
        q.qp.postSend(send(1, 2048));
        List<RxPacket> out = work(q);
        assertThat(out).extracting(p -> p.opcode().code()).containsExactly(UC | SEND_FIRST, UC | SEND_LAST);
        assertThat(out).noneMatch(p -> p.bth().ackReq());
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.SUCCESS);
        assertThat(q.qp.retransmitDeadline).as("no ACKs, so no ACK timer").isZero();
    }

    @Test
    void atMostMaxRdAtomicReadsAreInFlight() {
        StageQp q = new StageQp(memory, QpType.RC);
        for (int i = 0; i < 6; i++) {
            q.qp.postSend(read(i));
        }
        assertThat(work(q)).as("max_rd_atomic 4").hasSize(4);
        assertThat(work(q)).isEmpty();
        Requests.Request r = Requests.of(READ_RESPONSE_ONLY, S).payload(64).aeth(Aeth.ACK_SYNDROME, 1).build();
        completer.onResponse(q.qp, r.pkt(), r.data(), 0);
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.SUCCESS);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S + 4);
    }

    @Test
    void aFencedWrWaitsForEveryEarlierOne() {
        StageQp q = new StageQp(memory, QpType.RC);
        q.qp.postSend(send(1, 8));
        SendWorkRequest fenced = send(2, 8);
        fenced.flags(SendFlags.SIGNALED | SendFlags.FENCE);
        q.qp.postSend(fenced);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S);
        Requests.Request ack = Requests.of(ACKNOWLEDGE, S).aeth(Aeth.ACK_SYNDROME, 1).build();
        completer.onResponse(q.qp, ack.pkt(), ack.data(), 0);
        assertThat(work(q)).extracting(p -> p.bth().psn()).containsExactly(S + 1);
    }

    @Test
    void aBadLkeyFailsItsWrOnceItIsTheOldest() {
        StageQp q = new StageQp(memory, QpType.RC);
        q.qp.postSend(send(1, 8));
        q.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                .sg(new Sge(0x1000, 8, 0x0BAD)));
        assertThat(work(q)).hasSize(1);
        assertThat(q.sendCq.completions).isEmpty();
        Requests.Request ack = Requests.of(ACKNOWLEDGE, S).aeth(Aeth.ACK_SYNDROME, 1).build();
        completer.onResponse(q.qp, ack.pkt(), ack.data(), 0);
        work(q);
        assertThat(q.sendCq.statuses()).containsExactly(WcStatus.SUCCESS, WcStatus.LOC_PROT_ERR);
        assertThat(q.qp.state()).isEqualTo(QpState.ERR);
    }
}
