package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Function;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * RELIABILITY-SECURITY REL-30 (rxe advertised max_msg_sz 0x800000 while enforcing 2^31): each
 * limit query_device advertises is accepted exactly at its value and refused with EINVAL one
 * above it — max_qp_wr, max_sge and max_inline_data at create_qp, max_msg_sz (device and port)
 * at post_send, and the QP's own max_send_sge at post_send. (Over-posting a QP's queue is
 * QpPostingSuite's ENOMEM case; inline data over the QP's limit is RdmaOrderingSuite's.)
 */
class AdvertisedLimitsTest {
    @Test
    void rel30EachAdvertisedLimitIsAcceptedAtItsValueAndRefusedOneAbove() {
        int msg = SoftLimits.MAX_MSG_SIZE;
        try (RcPair p = new RcPair(FreshDevices.fresh("rel30"), Mtu.MTU_4096, 14, 7, 7, 1, msg + 1)) {
            DeviceAttr d = p.ctx.queryDevice();
            assertThat(d.maxMsgSize()).isEqualTo(msg);
            assertThat((long) p.ctx.queryPort(1).maxMsgSize()).isEqualTo(d.maxMsgSize());

            createAtAndAbove(p, d.maxQpWr(), n -> new QpCap(n, 1, 1, 1, 0), "max_send_wr");
            createAtAndAbove(p, d.maxQpWr(), n -> new QpCap(1, n, 1, 1, 0), "max_recv_wr");
            createAtAndAbove(p, d.maxSge(), n -> new QpCap(1, 1, n, 1, 0), "max_send_sge");
            createAtAndAbove(p, d.maxSge(), n -> new QpCap(1, 1, 1, n, 0), "max_recv_sge");
            createAtAndAbove(p, d.maxInlineData(), n -> new QpCap(1, 1, 1, 1, n), "max_inline_data");

            // max_msg_sz: a SEND of exactly 8 MiB goes through; one byte more is refused at post time
            p.b.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(p.mrB, 0, msg)));
            p.send(2, 0, msg);
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofSeconds(60))).singleElement().satisfies(wc -> {
                assertThat(wc.status).isEqualTo(WcStatus.SUCCESS);
                assertThat(wc.byteLen).isEqualTo(msg);
            });
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(60))).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            assertThatThrownBy(() -> p.send(3, 0, msg + 1)).isInstanceOf(VerbsException.class)
                    .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.EINVAL);

            // the QP's max_send_sge (RcPair asks for 4)
            int sges = p.a.cap().maxSendSge();
            Sge[] ok = new Sge[sges];
            for (int i = 0; i < sges; i++) {
                ok[i] = Sge.of(p.mrA, i * 8L, 8);
            }
            p.b.postRecv(new RecvWorkRequest().wrId(4).sg(Sge.of(p.mrB, 0, 64)));
            p.a.postSend(new SendWorkRequest().wrId(5).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED).sg(ok));
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(20))).singleElement()
                    .satisfies(wc -> assertThat(wc.status).isEqualTo(WcStatus.SUCCESS));
            Sge[] tooMany = java.util.Arrays.copyOf(ok, sges + 1);
            tooMany[sges] = Sge.of(p.mrA, 0, 8);
            assertThatThrownBy(() -> p.a.postSend(new SendWorkRequest().wrId(6).opcode(WrOpcode.SEND).sg(tooMany)))
                    .isInstanceOf(VerbsException.class).extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.EINVAL);
        }
    }

    private static void createAtAndAbove(RcPair p, int limit, Function<Integer, QpCap> cap, String what) {
        QueuePair at = p.pd.createQp(new QpInitAttr().cq(p.cqA).cap(cap.apply(limit)));
        at.close();
        assertThatThrownBy(() -> p.pd.createQp(new QpInitAttr().cq(p.cqA).cap(cap.apply(limit + 1))))
                .as("%s %d + 1", what, limit).isInstanceOf(VerbsException.class)
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.EINVAL);
    }
}
