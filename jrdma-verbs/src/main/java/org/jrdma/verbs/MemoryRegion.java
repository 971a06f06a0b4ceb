package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;

/** {@code struct ibv_mr}: registered memory with its local and remote keys. */
public interface MemoryRegion extends AutoCloseable {
    ProtectionDomain pd();

    MemorySegment segment();

    /** The start address, as work requests and peers name it. */
    long addr();

    long length();

    int lkey();

    int rkey();

    /** The {@link AccessFlags} it was registered with. */
    int access();

    /** ibv_dereg_mr: afterwards its keys are refused locally and remotely. */
    @Override
    void close();
}
