package org.jrdma.bootstrap;

/** The peer closed the channel before a whole message arrived (OOB-01). */
public class PeerClosedException extends BootstrapException {
    /** How many bytes of the message arrived. */
    private final int receivedBytes;
    /** How many bytes the message has. */
    private final int expectedBytes;

    /**
     * An early end of stream.
     *
     * @param what what was being read, e.g. the step and peer
     * @param receivedBytes how many bytes arrived
     * @param expectedBytes how many the message has
     */
    public PeerClosedException(String what, int receivedBytes, int expectedBytes) {
        super(what + ": unexpected EOF after " + receivedBytes + " of " + expectedBytes + " bytes");
        this.receivedBytes = receivedBytes;
        this.expectedBytes = expectedBytes;
    }

    /**
     * How many bytes of the message arrived before the end of stream.
     *
     * @return the count
     */
    public int receivedBytes() {
        return receivedBytes;
    }

    /**
     * How many bytes the whole message has.
     *
     * @return the count
     */
    public int expectedBytes() {
        return expectedBytes;
    }
}
