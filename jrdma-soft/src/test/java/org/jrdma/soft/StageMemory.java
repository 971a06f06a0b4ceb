package org.jrdma.soft;

import java.lang.foreign.Arena;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.soft.memory.MemoryTable;
import org.jrdma.soft.memory.PdId;
import org.jrdma.verbs.Context;

/**
 * Registered memory for the stage tests (org.jrdma.soft.transport), which build a requester,
 * responder or completer alone: a soft device on its own 127.77.x.y address, opened only for
 * its protection domain and memory table. Nothing runs its engine (INVOKER, never stepped), so
 * the stages under test are the only code that touches the memory.
 */
public final class StageMemory implements AutoCloseable {
    private final Context ctx;
    private final SoftPd pd;
    private final Arena arena = Arena.ofShared();

    public StageMemory(String name) {
        ctx = FreshDevices.fresh(name, SoftOptions.defaults().threading(ThreadingMode.INVOKER)).open();
        pd = (SoftPd) ctx.allocPd();
    }

    /** The protection domain that QPs built by the test must hold. */
    public PdId pd() {
        return pd.id();
    }

    /** The device's memory table (lkeys and rkeys of {@link #region}). */
    public MemoryTable memory() {
        return ((SoftContext) ctx).hca().memory();
    }

    /** A zeroed region of {@code bytes} with {@code access}. */
    public SoftMr region(int bytes, int access) {
        return (SoftMr) pd.registerMemory(arena.allocate(bytes, 8), access);
    }

    @Override
    public void close() {
        ctx.close();
        arena.close();
    }
}
