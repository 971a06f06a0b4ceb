package org.jrdma.verbs.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;
import org.junit.jupiter.api.Test;

class PostListsTest {
    private static SendWorkRequest[] sends(int n) {
        SendWorkRequest[] wrs = new SendWorkRequest[n];
        for (int i = n - 1; i >= 0; i--) {
            wrs[i] = new SendWorkRequest().wrId(i).next(i + 1 < n ? wrs[i + 1] : null);
        }
        return wrs;
    }

    @Test
    void aListsLengthIsItsWrCount() {
        assertThat(PostLists.length((SendWorkRequest) null)).isZero();
        for (int n = 1; n <= 40; n++) {
            SendWorkRequest[] wrs = sends(n);
            assertThat(PostLists.length(wrs[0])).as("a list of %d", n).isEqualTo(n);
            assertThat(PostLists.at(wrs[0], n - 1)).isSameAs(wrs[n - 1]);
        }
    }

    /** Every shape of cycle: onto the head, onto itself, onto any earlier WR, short and long tails. */
    @Test
    void everyCycleIsFound() {
        for (int n = 1; n <= 40; n++) {
            for (int back = 0; back < n; back++) {
                SendWorkRequest[] wrs = sends(n);
                wrs[n - 1].next = wrs[back];
                assertThat(PostLists.length(wrs[0])).as("%d WRs, the last leading back to WR %d", n, back).isEqualTo(-1);
            }
        }
    }

    @Test
    void receiveListsToo() {
        RecvWorkRequest c = new RecvWorkRequest().wrId(3);
        RecvWorkRequest b = new RecvWorkRequest().wrId(2).next(c);
        RecvWorkRequest a = new RecvWorkRequest().wrId(1).next(b);
        assertThat(PostLists.length(a)).isEqualTo(3);
        assertThat(PostLists.at(a, 2)).isSameAs(c);
        c.next(b);
        assertThat(PostLists.length(a)).isEqualTo(-1);
        RecvWorkRequest self = new RecvWorkRequest();
        assertThat(PostLists.length(self.next(self))).isEqualTo(-1);
        assertThat(PostLists.length((RecvWorkRequest) null)).isZero();
    }
}
