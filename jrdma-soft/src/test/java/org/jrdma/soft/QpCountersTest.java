package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.testkit.Await;
import org.jrdma.testkit.Loopback;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12 item 9: {@code QueuePair.counters()} showed {@code rcvd_bytes=0} on a QP that had
 * received data — only the device counter moved. For each kind of work, on two devices with one
 * QP each: every per-QP counter the work should move does move on both QPs, and it moves by
 * what the device saw (each device carries one QP, so the two must agree exactly).
 */
class QpCountersTest {
    private static final int SIZE = 4096; // four packets at MTU 1024
    private static final int UD_SIZE = 1024; // a datagram is at most one MTU
    private static final List<String> TRAFFIC = List.of("sent_packets", "sent_bytes", "rcvd_packets", "rcvd_bytes");
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    /** A kind of work, what A (the requester) and B must count, and which side carries the payload. */
    enum Work {
        SEND(QpType.RC, List.of("acks_rcvd"), List.of("acks_sent"), true),
        SEND_WITH_IMM(QpType.RC, List.of("acks_rcvd"), List.of("acks_sent"), true),
        RDMA_WRITE(QpType.RC, List.of("acks_rcvd"), List.of("acks_sent"), true),
        RDMA_READ(QpType.RC, List.of(), List.of(), false),
        ATOMIC_FETCH_AND_ADD(QpType.RC, List.of(), List.of(), true),
        UC_SEND(QpType.UC, List.of(), List.of(), true),
        UD_SEND(QpType.UD, List.of(), List.of(), true);

        final QpType type;
        final List<String> alsoA;
        final List<String> alsoB;
        final boolean payloadFromA;

        Work(QpType type, List<String> alsoA, List<String> alsoB, boolean payloadFromA) {
            this.type = type;
            this.alsoA = alsoA;
            this.alsoB = alsoB;
            this.payloadFromA = payloadFromA;
        }
    }

    @ParameterizedTest
    @EnumSource(Work.class)
    void everyCounterTheWorkMovesMovesOnBothQpsAsOnTheirDevices(Work work) {
        SoftDevice devA = FreshDevices.fresh("qpcnt_a");
        SoftDevice devB = FreshDevices.fresh("qpcnt_b");
        int access = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC;
        Loopback.Options o = Loopback.Options.defaults().withQpType(work.type).withQpAccess(access).withMrAccess(access)
                .withBufferBytes(SIZE + 64).withMtu(org.jrdma.verbs.Mtu.MTU_1024);
        try (Context ctxA = devA.open(); Context ctxB = devB.open(); Loopback pair = Loopback.open(ctxA, ctxB, 1, 0, o)) {
            Endpoint a = pair.a();
            Endpoint b = pair.b();
            Map<String, Long> qpA0 = a.qp.counters();
            Map<String, Long> qpB0 = b.qp.counters();
            Map<String, Long> devA0 = ctxA.counters();
            Map<String, Long> devB0 = ctxB.counters();

            run(work, a, b);

            Map<String, Long> movedA = delta(a.qp.counters(), qpA0);
            Map<String, Long> movedB = delta(b.qp.counters(), qpB0);
            String seen = work + ": A moved " + movedA + ", B moved " + movedB;
            List<String> movesOnA = work.type == QpType.RC ? TRAFFIC : List.of("sent_packets", "sent_bytes");
            List<String> movesOnB = work.type == QpType.RC ? TRAFFIC : List.of("rcvd_packets", "rcvd_bytes");
            for (String c : concat(movesOnA, work.alsoA)) {
                assertThat(movedA.get(c)).as("%s on A; %s", c, seen).isPositive();
            }
            for (String c : concat(movesOnB, work.alsoB)) {
                assertThat(movedB.get(c)).as("%s on B; %s", c, seen).isPositive();
            }
            long payload = switch (work) {
                case ATOMIC_FETCH_AND_ADD -> 8;
                case UD_SEND -> UD_SIZE;
                default -> SIZE;
            };
            String out = work.payloadFromA ? "A sent_bytes" : "B sent_bytes";
            assertThat(work.payloadFromA ? movedA.get("sent_bytes") : movedB.get("sent_bytes")).as("%s; %s", out, seen)
                    .isGreaterThanOrEqualTo(payload);
            assertThat(work.payloadFromA ? movedB.get("rcvd_bytes") : movedA.get("rcvd_bytes")).as("received bytes; %s", seen)
                    .isGreaterThanOrEqualTo(payload);

            // One QP per device: once the last packet is in, each QP's traffic is its device's.
            Await.until(Thread::onSpinWait, () -> sameTraffic(a, ctxA, qpA0, devA0) && sameTraffic(b, ctxB, qpB0, devB0), DEADLINE,
                    () -> work + ": per-QP traffic equal to the device's: A " + delta(a.qp.counters(), qpA0) + " vs "
                            + delta(ctxA.counters(), devA0) + "; B " + delta(b.qp.counters(), qpB0) + " vs "
                            + delta(ctxB.counters(), devB0));
        }
    }

    private static void run(Work work, Endpoint a, Endpoint b) {
        Sge local = Sge.of(a.sendMr, 0, SIZE);
        SendWorkRequest wr = new SendWorkRequest().wrId(1).flags(SendFlags.SIGNALED);
        boolean consumesReceive = switch (work) {
            case SEND, UC_SEND -> {
                wr.opcode(WrOpcode.SEND).sg(local);
                yield true;
            }
            case SEND_WITH_IMM -> {
                wr.opcode(WrOpcode.SEND_WITH_IMM).imm(7).sg(local);
                yield true;
            }
            case UD_SEND -> {
                wr.opcode(WrOpcode.SEND).sg(Sge.of(a.sendMr, 0, UD_SIZE)).ud(a.ah(), b.qp.qpNum(), Loopback.UD_QKEY);
                yield true;
            }
            case RDMA_WRITE -> {
                wr.opcode(WrOpcode.RDMA_WRITE).sg(local).rdma(b.recvMr.addr(), b.recvMr.rkey());
                yield false;
            }
            case RDMA_READ -> {
                wr.opcode(WrOpcode.RDMA_READ).sg(Sge.of(a.recvMr, 0, SIZE)).rdma(b.sendMr.addr(), b.sendMr.rkey());
                yield false;
            }
            case ATOMIC_FETCH_AND_ADD -> {
                wr.opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).sg(Sge.of(a.recvMr, 0, 8)).atomic(b.recvMr.addr(), b.recvMr.rkey(), 5, 0);
                yield false;
            }
        };
        if (consumesReceive) {
            b.qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(b.recvMr, 0, SIZE + 64)));
        }
        a.qp.postSend(wr);
        assertThat(RcPair.poll(a.sendCq, 1, DEADLINE)).as("%s completed", work).singleElement()
                .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
        if (consumesReceive) {
            assertThat(RcPair.poll(b.recvCq, 1, DEADLINE)).as("%s received", work).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
        }
    }

    private static boolean sameTraffic(Endpoint e, Context ctx, Map<String, Long> qp0, Map<String, Long> dev0) {
        Map<String, Long> qp = delta(e.qp.counters(), qp0);
        Map<String, Long> dev = delta(ctx.counters(), dev0);
        for (String c : concat(TRAFFIC, List.of("acks_sent", "acks_rcvd"))) {
            if (!qp.get(c).equals(dev.get(c))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Long> delta(Map<String, Long> now, Map<String, Long> before) {
        Map<String, Long> d = new LinkedHashMap<>();
        now.forEach((k, v) -> {
            long moved = v - before.getOrDefault(k, 0L);
            if (moved != 0 || TRAFFIC.contains(k) || k.startsWith("acks_")) {
                d.put(k, moved);
            }
        });
        return d;
    }

    private static List<String> concat(List<String> x, List<String> y) {
        return java.util.stream.Stream.concat(x.stream(), y.stream()).toList();
    }
}
