package org.jrdma.cm.wire;

import java.util.Optional;

/**
 * Bytes received from a peer that are not a CM message this codec accepts. The message names the
 * field; {@link #rejectReason()} is the REJ reason IBTA defines for the fault, where there is one
 * (a MAD of another class version: {@link RejectReason#INVALID_CLASS_VERSION}).
 */
public final class CmFormatException extends Exception {
    /** The refused field. */
    private final String field;
    /** The REJ reason for the fault, or null. */
    private final RejectReason rejectReason;

    /**
     * Refused bytes with no REJ reason of their own.
     *
     * @param field the refused field
     * @param problem what is wrong with it
     */
    public CmFormatException(String field, String problem) {
        this(field, problem, null);
    }

    /**
     * Refused bytes.
     *
     * @param field the refused field
     * @param problem what is wrong with it
     * @param rejectReason the REJ reason IBTA defines for the fault, or null
     */
    public CmFormatException(String field, String problem, RejectReason rejectReason) {
        super(field + ": " + problem);
        this.field = field;
        this.rejectReason = rejectReason;
    }

    /**
     * The refused field, e.g. {@code "classVersion"} or {@code "cmaVersion"}.
     *
     * @return the field's name
     */
    public String field() {
        return field;
    }

    /**
     * The REJ reason to answer with, where IBTA defines one for the fault.
     *
     * @return the reason, or empty
     */
    public Optional<RejectReason> rejectReason() {
        return Optional.ofNullable(rejectReason);
    }
}
