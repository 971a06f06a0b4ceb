package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.List;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PostException;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * A post list is one doorbell: post_send wakes the engine and progresses once after the list's
 * last WR, not once per WR — also when a later WR of the list is refused (the ones before it must
 * go), never when nothing was posted.
 */
class PostListDoorbellTest {
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @Test
    void aListRingsTheDoorbellOnceAndSinglePostsOnceEach() {
        try (RcPair p = new RcPair(FreshDevices.fresh("plist"), Mtu.MTU_1024, 14, 7, 7, 12, 8192)) {
            SoftQp a = (SoftQp) p.a;
            RecvWorkRequest head = null;
            for (int i = 15; i >= 0; i--) {
                head = new RecvWorkRequest().wrId(100 + i).sg(Sge.of(p.mrB, 256L * i, 256)).next(head);
            }
            p.b.postRecv(head);
            long before = a.doorbells();

            a.postSend(list(p, 0, 4));
            assertThat(a.doorbells() - before).as("doorbells for a list of 4").isEqualTo(1);
            assertWrIds(RcPair.poll(p.cqA, 4, DEADLINE), 0, 4);

            for (int i = 4; i < 8; i++) {
                a.postSend(new SendWorkRequest().wrId(i).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, 0, 32)));
            }
            assertThat(a.doorbells() - before).as("then four single posts").isEqualTo(5);
            assertWrIds(RcPair.poll(p.cqA, 4, DEADLINE), 4, 4);

            SendWorkRequest bad = list(p, 8, 4);
            bad.next.next.opcode(WrOpcode.TSO); // WR 2 of the list: not an opcode the soft provider takes
            PostException e = catchThrowableOfType(PostException.class, () -> a.postSend(bad));
            assertThat(e.posted()).isEqualTo(2);
            assertThat(a.doorbells() - before).as("a list refused at WR 2 still rings for the two before it").isEqualTo(6);
            assertWrIds(RcPair.poll(p.cqA, 2, DEADLINE), 8, 2);

            SendWorkRequest refusedHead = list(p, 12, 2).opcode(WrOpcode.TSO);
            PostException none = catchThrowableOfType(PostException.class, () -> a.postSend(refusedHead));
            assertThat(none.posted()).isZero();
            assertThat(none.errno()).isNotEqualTo(Errno.ENOMEM);
            assertThat(a.doorbells() - before).as("nothing posted: no doorbell").isEqualTo(6);
        }
    }

    /** {@code n} signaled 32-byte SENDs with wr_ids first …, chained in order. */
    private static SendWorkRequest list(RcPair p, long first, int n) {
        SendWorkRequest head = null;
        for (int i = n - 1; i >= 0; i--) {
            head = new SendWorkRequest().wrId(first + i).flags(SendFlags.SIGNALED).sg(Sge.of(p.mrA, 0, 32)).next(head);
        }
        return head;
    }

    private static void assertWrIds(List<WorkCompletion> wcs, long first, int n) {
        assertThat(wcs).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(wcs.get(i).status).as("status of %s", wcs.get(i)).isEqualTo(WcStatus.SUCCESS);
            assertThat(wcs.get(i).wrId).as("wr_id of completion %d", i).isEqualTo(first + i);
        }
    }
}
