package org.jrdma.bootstrap;

/** The step of an exchange that a deadline applies to. */
public enum ExchangeStep {
    /** Connecting to a TCP server ({@code connect}). */
    CONNECT("connect"),
    /** Waiting for a TCP client ({@code accept}). */
    ACCEPT("accept"),
    /** Writing the local message. */
    WRITE("write"),
    /** Reading the peer's message. */
    READ("read"),
    /** Waiting for the peer's file to appear. */
    WAIT_FOR_FILE("wait-for-file");

    private final String label;

    ExchangeStep(String label) {
        this.label = label;
    }

    /**
     * The name used in messages: {@code connect}, {@code accept}, {@code write}, {@code read},
     * {@code wait-for-file}.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
