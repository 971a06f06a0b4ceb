package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.List;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Qkey;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;

/** The GSI QP's life on a soft device: number 1, one per device, UD's state machine and flushes. */
class GsiQpTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void theGsiQpIsQp1AndTheDeviceHasOneAcrossItsContexts() {
        SoftDevice dev = FreshDevices.fresh("gsi_one");
        try (Arena arena = Arena.ofShared(); GsiEnd first = new GsiEnd(dev, arena); GsiEnd second = new GsiEnd(dev, arena)) {
            assertThat(second.hca()).as("two contexts of one device share it").isSameAs(first.hca());
            QueuePair qp1 = first.gsi();
            assertThat(qp1.qpNum()).isEqualTo(1);
            assertThat(qp1.qpType()).isEqualTo(QpType.GSI);
            assertThat(qp1.query().qkey()).isEqualTo(Qkey.QP1);

            assertThatThrownBy(second::gsi).isInstanceOfSatisfying(VerbsException.class,
                            e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY))
                    .hasMessageContaining("create_qp: the device's GSI QP (QP1) exists already");
            assertThatThrownBy(first::gsi).isInstanceOfSatisfying(VerbsException.class,
                    e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));
            assertThat(second.ud(0x11111111).qpNum()).as("other QPs never get number 1").isNotIn(0, 1);

            qp1.close();
            QueuePair again = second.gsi();
            assertThat(again.qpNum()).isEqualTo(1);
            assertThat(again.state()).isEqualTo(QpState.RTS);
        }
    }

    @Test
    void theGsiQpTakesOnlyQp1sQkeyAndNeedsNoPort() {
        SoftDevice dev = FreshDevices.fresh("gsi_qkey");
        try (Arena arena = Arena.ofShared(); GsiEnd end = new GsiEnd(dev, arena)) {
            QueuePair qp = end.pd.createQp(new QpInitAttr().qpType(QpType.GSI).cq(end.cq));
            assertThatThrownBy(() -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).qkey(0x11111111)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                    .hasMessageContaining("the GSI QP's Q_Key is 0x80010000");
            assertThatThrownBy(() -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0)))
                    .hasMessageContaining("missing required attribute QKEY");
            assertThat(qp.state()).isEqualTo(QpState.RESET);
            qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).qkey(Qkey.QP1));
            qp.modify(new QpAttr().state(QpState.RTR));
            qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0));
            qp.modify(new QpAttr().qkey(Qkey.QP1)); // RTS → RTS may restate it
            assertThat(qp.query().qkey()).isEqualTo(Qkey.QP1);
        }
    }

    @Test
    void aNonGsiQpIsRefusedAControlledQkeyWithEperm() {
        SoftDevice dev = FreshDevices.fresh("gsi_eperm");
        try (Arena arena = Arena.ofShared(); GsiEnd end = new GsiEnd(dev, arena)) {
            QueuePair ud = end.pd.createQp(new QpInitAttr().qpType(QpType.UD).cq(end.cq));
            assertThatThrownBy(() -> ud.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(Qkey.QP1)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPERM))
                    .hasMessageContaining("Q_Key 0x80010000 is a controlled Q_Key (high-order bit set): "
                            + "only the GSI QP may use it");
            assertThat(ud.state()).as("a refused modify changes nothing").isEqualTo(QpState.RESET);
            QueuePair ready = end.ud(0x11111111);
            assertThatThrownBy(() -> ready.modify(new QpAttr().qkey(0x80000000)))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPERM));
            assertThat(ready.query().qkey()).isEqualTo(0x11111111);
        }
    }

    /** → ERR flushes receives and sends as for any UD QP; destroying QP1 frees the number and the address. */
    @Test
    void errFlushesAndDestroyLetsQp1Traffic() {
        try (Arena arena = Arena.ofShared();
             GsiEnd a = new GsiEnd(FreshDevices.fresh("gsi_flush_a"), arena);
             GsiEnd b = new GsiEnd(FreshDevices.fresh("gsi_flush_b"), arena)) {
            QueuePair qp = b.gsi();
            for (int i = 0; i < 3; i++) {
                qp.postRecv(new RecvWorkRequest().wrId(i).sg(Sge.of(b.mr, i * 512L, 296)));
            }
            qp.modify(new QpAttr().state(QpState.ERR));
            qp.postSend(new SendWorkRequest().wrId(9).flags(SendFlags.SIGNALED).sg(Sge.of(b.mr, 4096, 256))
                    .ud(b.ahTo(a), 1, Qkey.QP1));
            List<WorkCompletion> flushed = RcPair.poll(b.cq, 4, DEADLINE);
            assertThat(flushed).extracting(w -> w.wrId).containsExactlyInAnyOrder(0L, 1L, 2L, 9L);
            assertThat(flushed).allSatisfy(w -> {
                assertThat(w.status).isEqualTo(WcStatus.WR_FLUSH_ERR);
                assertThat(w.qpNum).isEqualTo(1);
            });
            qp.close();

            // No GSI QP on b any more: a MAD to QP1 is dropped as to any unknown QP.
            QueuePair sender = a.gsi();
            sender.postSend(new SendWorkRequest().wrId(1).flags(SendFlags.SIGNALED).sg(Sge.of(a.mr, 0, 256))
                    .ud(a.ahTo(b), 1, Qkey.QP1));
            RcPair.await(() -> b.hca().drops(DropReason.UNKNOWN_QPN) == 1, DEADLINE, "b drops the MAD to a QP1 that is gone");
            assertThat(b.gsi().qpNum()).isEqualTo(1);
        }
    }
}
