package org.jrdma.verbs;

/** {@code enum ibv_port_state}: a port's logical link state, as ibv_query_port reports it. */
public enum PortState {
    /** {@code IBV_PORT_NOP}: reserved, no state. */
    NOP(0),
    /** {@code IBV_PORT_DOWN}: the link is down. */
    DOWN(1),
    /** {@code IBV_PORT_INIT}: the link is up but not yet configured by the subnet manager. */
    INIT(2),
    /** {@code IBV_PORT_ARMED}: configured, waiting to become active. */
    ARMED(3),
    /** {@code IBV_PORT_ACTIVE}: up and passing traffic (a RoCE port with its link up). */
    ACTIVE(4),
    /** {@code IBV_PORT_ACTIVE_DEFER}: logically active while the physical link is down. */
    ACTIVE_DEFER(5);

    private final int value;

    PortState(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_PORT_*} value} */
    public int value() {
        return value;
    }
}
