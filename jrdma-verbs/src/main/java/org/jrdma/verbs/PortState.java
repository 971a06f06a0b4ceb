package org.jrdma.verbs;

/** {@code enum ibv_port_state}. */
public enum PortState {
    NOP(0), DOWN(1), INIT(2), ARMED(3), ACTIVE(4), ACTIVE_DEFER(5);

    private final int value;

    PortState(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }
}
