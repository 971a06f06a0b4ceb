package org.jrdma.verbs.spi;

import java.util.function.UnaryOperator;
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

    /** The link of a send WR (a constant: no allocation per call). */
    private static final UnaryOperator<SendWorkRequest> SEND_NEXT = wr -> wr.next;
    /** The link of a receive WR (a constant: no allocation per call). */
    private static final UnaryOperator<RecvWorkRequest> RECV_NEXT = wr -> wr.next;

    /**
     * How many WRs the send list from {@code head} has.
     *
     * @param head the first WR, or null
     * @return the number of WRs (0 for null), or -1 when the list is cyclic
     */
    public static int length(SendWorkRequest head) {
        return length(head, SEND_NEXT);
    }

    /**
     * How many WRs the receive list from {@code head} has.
     *
     * @param head the first WR, or null
     * @return the number of WRs (0 for null), or -1 when the list is cyclic
     */
    public static int length(RecvWorkRequest head) {
        return length(head, RECV_NEXT);
    }

    /** Brent's cycle detection over the chain from {@code head} linked by {@code next}. */
    private static <T> int length(T head, UnaryOperator<T> next) {
        if (head == null) {
            return 0;
        }
        T tortoise = head;
        T hare = next.apply(head);
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
            hare = next.apply(hare);
            lambda++;
            n++;
        }
        return n;
    }

    /**
     * The send WR {@code index} steps after {@code head}.
     *
     * @param head  the first WR
     * @param index steps to take; the list must have more than {@code index} WRs
     * @return that WR
     */
    public static SendWorkRequest at(SendWorkRequest head, int index) {
        SendWorkRequest wr = head;
        for (int i = 0; i < index; i++) {
            wr = wr.next;
        }
        return wr;
    }

    /**
     * The receive WR {@code index} steps after {@code head}.
     *
     * @param head  the first WR
     * @param index steps to take; the list must have more than {@code index} WRs
     * @return that WR
     */
    public static RecvWorkRequest at(RecvWorkRequest head, int index) {
        RecvWorkRequest wr = head;
        for (int i = 0; i < index; i++) {
            wr = wr.next;
        }
        return wr;
    }
}
