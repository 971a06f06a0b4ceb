package org.jrdma.bootstrap;

/**
 * A value refused by validation, naming the field it belongs to ({@code "qpn"}, {@code "psn"}…).
 * Thrown for values given locally (a {@link ConnInfo} built in code); values that came from a
 * peer, a file or the command line are reported as the subclass {@link MalformedMessageException}.
 */
public class InvalidFieldException extends BootstrapException {
    /** The refused field's name. */
    private final String field;
    /** What is wrong with the field. */
    private final String problem;

    /**
     * A refused value given locally.
     *
     * @param field the field's name, e.g. {@code "qpn"}
     * @param problem what is wrong with it, without the field name
     */
    public InvalidFieldException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    /**
     * A refused value, for subclasses that prefix the message.
     *
     * @param prefix put before the field name in the message, e.g. {@code "malformed "}
     * @param field the field's name
     * @param problem what is wrong with it, without the field name
     * @param cause the underlying failure, or null
     */
    protected InvalidFieldException(String prefix, String field, String problem, Throwable cause) {
        super(prefix + field + ": " + problem, cause);
        this.field = field;
        this.problem = problem;
    }

    /**
     * The field, or the place in the message, that was refused.
     *
     * @return the field's name
     */
    public String field() {
        return field;
    }

    /**
     * What is wrong with it, without the field name.
     *
     * @return the problem
     */
    public String problem() {
        return problem;
    }
}
