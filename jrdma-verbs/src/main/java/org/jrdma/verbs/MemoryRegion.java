package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;

/** {@code struct ibv_mr}: registered memory with its local and remote keys. */
public interface MemoryRegion extends AutoCloseable {
    /** {@return the protection domain it was registered in} */
    ProtectionDomain pd();

    /** {@return the registered memory} */
    MemorySegment segment();

    /** {@return the start address, as work requests and peers name it} */
    long addr();

    /** {@return the size in bytes} */
    long length();

    /** {@return the local key, for {@link Sge#lkey} of this PD's work requests} */
    int lkey();

    /** {@return the remote key peers name it by in RDMA and atomic requests} */
    int rkey();

    /** {@return the {@link AccessFlags} it was registered with} */
    int access();

    /** ibv_dereg_mr: afterwards its keys are refused locally and remotely. */
    @Override
    void close();
}
