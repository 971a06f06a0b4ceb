package org.jrdma.bootstrap;

/**
 * The peer's handshake carries a version we do not speak (OOB-07). Names both versions and is
 * thrown before anything after the version field is parsed: there is no negotiation, so no
 * fall-through into a parser for another layout.
 */
public class VersionMismatchException extends MalformedMessageException {
    private final int ours;
    private final int theirs;

    public VersionMismatchException(String protocol, int ours, int theirs) {
        super("version", "the peer speaks " + protocol + " version " + theirs + ", we speak version " + ours);
        this.ours = ours;
        this.theirs = theirs;
    }

    public int ours() {
        return ours;
    }

    public int theirs() {
        return theirs;
    }
}
