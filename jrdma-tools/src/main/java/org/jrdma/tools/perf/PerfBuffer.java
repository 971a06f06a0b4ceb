package org.jrdma.tools.perf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;

/**
 * The one buffer a run registers (laid out by {@link BufferLayout}), allocated before any
 * network activity: 64 QPs of 8 MiB messages ask for 1.5 GiB, and a host that cannot give it
 * failed with an OutOfMemoryError and its stack trace after the connection. {@link
 * PerfResources} takes it over and frees it.
 */
final class PerfBuffer implements AutoCloseable {
    final BufferLayout layout;
    final MemorySegment segment;
    private final Arena arena;

    private PerfBuffer(BufferLayout layout, MemorySegment segment, Arena arena) {
        this.layout = layout;
        this.segment = segment;
        this.arena = arena;
    }

    /** The buffer for messages up to {@code maxSize} bytes on {@code qps} QPs; ENOMEM, in words, when the host has not that much. */
    static PerfBuffer allocate(int maxSize, boolean ud, int qps) {
        return allocate(null, maxSize, ud, qps);
    }

    /** As {@link #allocate(int, boolean, int)}, in the memory {@code ctx} moves best (null: ordinary memory). */
    static PerfBuffer allocate(org.jrdma.verbs.Context ctx, int maxSize, boolean ud, int qps) {
        BufferLayout layout = new BufferLayout(maxSize, ud, qps);
        Arena arena = Arena.ofShared();
        try {
            // the device's own memory where it has one (shm: a mapping the peer process reaches directly)
            return new PerfBuffer(layout, ctx == null ? arena.allocate(layout.totalBytes(), BufferLayout.PAGE)
                    : ctx.allocateMemory(layout.totalBytes(), arena), arena);
        } catch (OutOfMemoryError | VerbsException e) {
            arena.close();
            if (e instanceof VerbsException v && v.errno() != Errno.ENOMEM) {
                throw v;
            }
            throw new VerbsException(Errno.ENOMEM, String.format(Locale.ROOT, "cannot allocate the %.1f MiB buffer (--qp %d × 3"
                    + " regions of %.1f MiB, for messages up to %d bytes): %s; give fewer QPs or a smaller --size",
                    layout.totalBytes() / 1048576.0, qps, layout.regionBytes / 1048576.0, maxSize, e.getMessage()));
        }
    }

    /** Registers the buffer, tied to its arena: {@link #close} deregisters it before the memory is freed. */
    MemoryRegion register(ProtectionDomain pd, int access) {
        return pd.registerMemory(segment, access, arena);
    }

    @Override
    public void close() {
        arena.close();
    }
}
