package org.jrdma.bootstrap;

/**
 * Input from outside (a peer's message, a peer file, a config file, a command-line value) is
 * not what the format allows. {@link #field()} names the place: {@code size}, {@code lid},
 * {@code qpn}, {@code psn}, {@code gid}, {@code separator}, {@code terminator}, {@code pad},
 * {@code mtu}, a config key, or {@code line}. The message quotes at most
 * {@link Excerpt#MAX_BYTES} bytes of the input (OOB-06, OOB-16).
 */
public class MalformedMessageException extends InvalidFieldException {
    /**
     * Refused outside input.
     *
     * @param field the place in the input, e.g. {@code "psn"}
     * @param problem what is wrong, quoting at most {@link Excerpt#MAX_BYTES} bytes
     */
    public MalformedMessageException(String field, String problem) {
        super("malformed ", field, problem, null);
    }

    /**
     * Refused outside input, with its cause.
     *
     * @param field the place in the input
     * @param problem what is wrong, quoting at most {@link Excerpt#MAX_BYTES} bytes
     * @param cause the underlying failure
     */
    public MalformedMessageException(String field, String problem, Throwable cause) {
        super("malformed ", field, problem, cause);
    }

    /**
     * The same refusal, now attributed to outside input.
     *
     * @param e a refusal of a locally built value
     * @return {@code e} itself if it already is one, else a new one with the same field and problem
     */
    public static MalformedMessageException from(InvalidFieldException e) {
        if (e instanceof MalformedMessageException m) {
            return m;
        }
        return new MalformedMessageException(e.field(), e.problem(), e);
    }
}
