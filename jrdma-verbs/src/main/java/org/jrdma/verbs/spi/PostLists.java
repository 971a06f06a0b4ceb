package org.jrdma.verbs.spi;

import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendWorkRequest;

/**
 * Walking post lists ({@code next} chains of work requests) for providers: their length, with
 * cycles found without allocating (Brent's algorithm: one pass of the list plus at most its
 * cycle's length again), and the WR at a position.
 */
public final class PostLists {
    private PostLists() {
    }

    /** How many WRs the list from {@code head} has, or -1 when it is cyclic. */
    public static int length(SendWorkRequest head) {
        if (head == null) {
            return 0;
        }
        SendWorkRequest tortoise = head;
        SendWorkRequest hare = head.next;
        int power = 1;
        int lambda = 1;
        int n = 1;
        while (hare != null) {
            if (hare == tortoise) {
                return -1;
            }
            if (power == lambda) {
                tortoise = hare;
                power <<= 1;
                lambda = 0;
            }
            hare = hare.next;
            lambda++;
            n++;
        }
        return n;
    }

    /** How many WRs the list from {@code head} has, or -1 when it is cyclic. */
    public static int length(RecvWorkRequest head) {
        if (head == null) {
            return 0;
        }
        RecvWorkRequest tortoise = head;
        RecvWorkRequest hare = head.next;
        int power = 1;
        int lambda = 1;
        int n = 1;
        while (hare != null) {
            if (hare == tortoise) {
                return -1;
            }
            if (power == lambda) {
                tortoise = hare;
                power <<= 1;
                lambda = 0;
            }
            hare = hare.next;
            lambda++;
            n++;
        }
        return n;
    }

    /** The WR {@code index} steps after {@code head} (the list has more than {@code index} WRs). */
    public static SendWorkRequest at(SendWorkRequest head, int index) {
        SendWorkRequest wr = head;
        for (int i = 0; i < index; i++) {
            wr = wr.next;
        }
        return wr;
    }

    /** The WR {@code index} steps after {@code head} (the list has more than {@code index} WRs). */
    public static RecvWorkRequest at(RecvWorkRequest head, int index) {
        RecvWorkRequest wr = head;
        for (int i = 0; i < index; i++) {
            wr = wr.next;
        }
        return wr;
    }
}
