package org.jrdma.bootstrap;

/**
 * The peer's handshake carries a version we do not speak (OOB-07). Names both versions and is
 * thrown before anything after the version field is parsed: there is no negotiation, so no
 * fall-through into a parser for another layout.
 */
public class VersionMismatchException extends MalformedMessageException {
    /** The version we speak. */
    private final int ours;
    /** The version the peer sent. */
    private final int theirs;

    /**
     * A version we do not speak.
     *
     * @param protocol the protocol's name, for the message
     * @param ours the version we speak
     * @param theirs the version the peer sent
     */
    public VersionMismatchException(String protocol, int ours, int theirs) {
        super("version", "the peer speaks " + protocol + " version " + theirs + ", we speak version " + ours);
        this.ours = ours;
        this.theirs = theirs;
    }

    /**
     * The version we speak.
     *
     * @return the version
     */
    public int ours() {
        return ours;
    }

    /**
     * The version the peer sent.
     *
     * @return the version
     */
    public int theirs() {
        return theirs;
    }
}
