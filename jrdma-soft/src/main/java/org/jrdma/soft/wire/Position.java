package org.jrdma.soft.wire;

/**
 * Where a packet sits in its message. Single-packet operations (READ request, atomics, ACKs,
 * UD sends) are {@link #ONLY}, as rxe marks them START|END.
 */
public enum Position {
    FIRST, MIDDLE, LAST, ONLY;

    /** FIRST or ONLY: the packet opens a message (rxe RXE_START_MASK). */
    public boolean isStart() {
        return this == FIRST || this == ONLY;
    }

    /** LAST or ONLY: the packet closes a message (rxe RXE_END_MASK). */
    public boolean isEnd() {
        return this == LAST || this == ONLY;
    }
}
