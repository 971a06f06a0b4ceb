package org.jrdma.verbs;

/**
 * {@code struct ibv_mw}: a window onto part of a memory region, with its own rkey. Each bind
 * changes the rkey's low 8 bits (ibv_inc_rkey), so a stale rkey stops matching.
 */
public interface MemoryWindow extends AutoCloseable {
    /** {@return the window's type, as allocated} */
    MwType type();

    /** {@return the rkey of the current binding (of the last one, when unbound)} */
    int rkey();

    /** ibv_dealloc_mw: the window's rkey stops working. */
    @Override
    void close();
}
