package org.jrdma.verbs;

/**
 * A post that did not post its whole list: ibv_post_send's (ibv_post_recv's, ibv_post_srq_recv's)
 * nonzero return with {@code bad_wr}, as an exception.
 *
 * <p>As with libibverbs, the WRs before {@link #badWr()} were posted and complete as usual; it and
 * every WR after it were not. {@link #posted()} is how many were: the bad WR's position in the
 * list, counted from 0. Every failure of {@link QueuePair#postSend}, {@link QueuePair#postRecv} and
 * {@link SharedReceiveQueue#postRecv} is a {@code PostException}, a single WR's too (posted 0, bad
 * WR the one given), with the errno and message that WR's failure has on its own; for a WR after
 * the first the message adds its place in the list. Catching {@link VerbsException} still catches
 * it.
 *
 * <p>A cyclic list (a WR whose {@code next} leads back to it) would never end: it is refused with
 * EINVAL before anything is posted (bad WR: the head; posted: 0). A list longer than the queue
 * can hold fails where the queue runs out (ENOMEM), as a queue that fills does.
 */
public final class PostException extends VerbsException {
    // A WR is not serializable; a deserialized exception has no bad WR (posted() stays).
    private final transient Object badWr;
    /** How many WRs of the list were posted before the bad one. */
    private final int posted;

    /**
     * A post that stopped at {@code badWr}.
     *
     * @param errno   the errno of the bad WR's failure
     * @param message what failed and why
     * @param badWr the first WR not posted: a {@link SendWorkRequest} or {@link RecvWorkRequest}
     * @param posted how many WRs of the list before it were posted
     * @param cause   the failure of the bad WR on its own, or null
     * @throws IllegalArgumentException when {@code badWr} is neither kind of WR or {@code posted} is negative
     */
    public PostException(Errno errno, String message, Object badWr, int posted, Throwable cause) {
        super(errno, message, cause);
        if (!(badWr instanceof SendWorkRequest) && !(badWr instanceof RecvWorkRequest)) {
            throw new IllegalArgumentException("bad_wr must be a SendWorkRequest or RecvWorkRequest, not " + badWr);
        }
        if (posted < 0) {
            throw new IllegalArgumentException("posted " + posted);
        }
        this.badWr = badWr;
        this.posted = posted;
    }

    /**
     * {@code failure}, the reason WR number {@code posted} of a list was not posted, as the list's
     * failure: same errno, same message (plus the WR's place when it is not the first); a
     * {@code PostException} already is one and is returned as it is.
     *
     * @param failure why the WR was refused
     * @param badWr   that WR: a {@link SendWorkRequest} or {@link RecvWorkRequest}
     * @param posted  its place in the list, from 0: how many before it were posted
     * @return the list's failure
     */
    public static PostException of(VerbsException failure, Object badWr, int posted) {
        if (failure instanceof PostException p) {
            return p;
        }
        String message = posted == 0 ? failure.reason()
                : failure.reason() + " (WR " + posted + " of the post list, wr_id " + wrIdOf(badWr) + "; the " + posted
                        + " before it were posted)";
        return new PostException(failure.errno(), message, badWr, posted, failure);
    }

    /**
     * The refusal of a cyclic list by {@code verb} (e.g. {@code post_send}): EINVAL, nothing posted.
     *
     * @param verb the verb that refused it
     * @param head the list's first WR
     * @return the failure, with bad WR {@code head} and posted 0
     */
    public static PostException cyclic(String verb, Object head) {
        return new PostException(Errno.EINVAL, verb + ": the post list is cyclic (a WR's next leads back to it); nothing was"
                + " posted", head, 0, null);
    }

    /**
     * {@return the first WR not posted (a {@link SendWorkRequest} or {@link RecvWorkRequest}), as given; null
     * after deserialization}
     */
    public Object badWr() {
        return badWr;
    }

    /** {@return {@link #badWr()} when it is a send WR, else null} */
    public SendWorkRequest badSendWr() {
        return badWr instanceof SendWorkRequest s ? s : null;
    }

    /** {@return {@link #badWr()} when it is a receive WR, else null} */
    public RecvWorkRequest badRecvWr() {
        return badWr instanceof RecvWorkRequest r ? r : null;
    }

    /** {@return how many WRs of the list, from its head, were posted before the bad one} */
    public int posted() {
        return posted;
    }

    private static long wrIdOf(Object wr) {
        return switch (wr) {
            case SendWorkRequest s -> s.wrId;
            case RecvWorkRequest r -> r.wrId;
            default -> -1;
        };
    }
}
