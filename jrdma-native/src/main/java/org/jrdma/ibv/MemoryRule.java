package org.jrdma.ibv;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Which memory the native provider registers, so that the NIC never writes into freed memory.
 *
 * <ul>
 *   <li>Heap segments move with the GC: refused.</li>
 *   <li>A segment of an arena the program can close ({@link Arena#ofConfined()},
 *       {@link Arena#ofShared()}, a custom arena): only through
 *       {@code registerMemory(segment, access, arena)}, which deregisters the region when the arena
 *       closes, before the memory is freed. The two-argument form refuses it.</li>
 *   <li>The global arena and automatic arenas ({@link Arena#ofAuto()}): either form. The region
 *       holds the segment, and the context holds the region until it is closed, so automatic
 *       memory cannot be collected while registered.</li>
 * </ul>
 *
 * The scope is told apart by its implementation class (jdk.internal.foreign's GlobalSession and
 * ImplicitSession cannot be closed); anything else counts as closable.
 */
final class MemoryRule {
    private MemoryRule() {
    }

    static void checkNative(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new VerbsException(Errno.EINVAL, "ibv_reg_mr: a heap segment moves with the garbage collector and"
                    + " cannot be registered; allocate it from an Arena");
        }
    }

    static boolean isClosable(MemorySegment segment) {
        String scope = segment.scope().getClass().getName();
        return !(scope.endsWith(".GlobalSession") || scope.endsWith(".ImplicitSession"));
    }

    /** The two-argument form: refuses a segment whose arena can close under the registration. */
    static void checkTwoArgument(MemorySegment segment) {
        checkNative(segment);
        if (isClosable(segment)) {
            throw new VerbsException(Errno.EINVAL, "ibv_reg_mr: the segment's arena can be closed while it is"
                    + " registered, and the NIC could then write into freed memory; use"
                    + " registerMemory(segment, access, arena), which deregisters it when the arena closes, or"
                    + " allocate from Arena.ofAuto() or Arena.global()");
        }
    }
}
