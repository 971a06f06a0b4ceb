package org.jrdma.cm.wire;

import java.util.Optional;

/**
 * Bytes received from a peer that are not a CM message this codec accepts. The message names the
 * field; {@link #rejectReason()} is the REJ reason IBTA defines for the fault, where there is one
 * (a MAD of another class version: {@link RejectReason#INVALID_CLASS_VERSION}).
 */
public final class CmFormatException extends Exception {
    private final String field;
    private final RejectReason rejectReason;

    public CmFormatException(String field, String problem) {
        this(field, problem, null);
    }

    public CmFormatException(String field, String problem, RejectReason rejectReason) {
        super(field + ": " + problem);
        this.field = field;
        this.rejectReason = rejectReason;
    }

    /** The refused field, e.g. {@code "classVersion"} or {@code "cmaVersion"}. */
    public String field() {
        return field;
    }

    public Optional<RejectReason> rejectReason() {
        return Optional.ofNullable(rejectReason);
    }
}
