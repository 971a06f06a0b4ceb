package org.jrdma.bootstrap;

/**
 * A value refused by validation, naming the field it belongs to ({@code "qpn"}, {@code "psn"}…).
 * Thrown for values given locally (a {@link ConnInfo} built in code); values that came from a
 * peer, a file or the command line are reported as the subclass {@link MalformedMessageException}.
 */
public class InvalidFieldException extends BootstrapException {
    private final String field;
    private final String problem;

    public InvalidFieldException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
        this.problem = problem;
    }

    protected InvalidFieldException(String prefix, String field, String problem, Throwable cause) {
        super(prefix + field + ": " + problem, cause);
        this.field = field;
        this.problem = problem;
    }

    /** The field, or the place in the message, that was refused. */
    public String field() {
        return field;
    }

    /** What is wrong with it, without the field name. */
    public String problem() {
        return problem;
    }
}
