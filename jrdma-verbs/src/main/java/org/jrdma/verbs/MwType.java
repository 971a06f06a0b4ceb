package org.jrdma.verbs;

/** {@code enum ibv_mw_type}. */
public enum MwType {
    /** Bound by ibv_bind_mw, not tied to a QP; invalidated by rebinding or dealloc. */
    TYPE_1(1),
    /** Bound by a BIND_MW work request on one QP; invalidated by LOCAL_INV / SEND_WITH_INV. */
    TYPE_2(2);

    private final int value;

    MwType(int value) {
        this.value = value;
    }

    /** {@return the {@code IBV_MW_TYPE_*} value, 1 or 2} */
    public int value() {
        return value;
    }
}
