package org.jrdma.bootstrap;

/** The peer closed the channel before a whole message arrived (OOB-01). */
public class PeerClosedException extends BootstrapException {
    private final int receivedBytes;
    private final int expectedBytes;

    public PeerClosedException(String what, int receivedBytes, int expectedBytes) {
        super(what + ": unexpected EOF after " + receivedBytes + " of " + expectedBytes + " bytes");
        this.receivedBytes = receivedBytes;
        this.expectedBytes = expectedBytes;
    }

    public int receivedBytes() {
        return receivedBytes;
    }

    public int expectedBytes() {
        return expectedBytes;
    }
}
