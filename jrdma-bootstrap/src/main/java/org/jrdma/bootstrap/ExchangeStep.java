package org.jrdma.bootstrap;

/** The step of an exchange that a deadline applies to. */
public enum ExchangeStep {
    CONNECT("connect"), ACCEPT("accept"), WRITE("write"), READ("read"), WAIT_FOR_FILE("wait-for-file");

    private final String label;

    ExchangeStep(String label) {
        this.label = label;
    }

    /** The name used in messages: {@code connect}, {@code accept}, {@code write}, {@code read}, {@code wait-for-file}. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
