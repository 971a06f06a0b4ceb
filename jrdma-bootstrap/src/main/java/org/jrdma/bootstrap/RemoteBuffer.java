package org.jrdma.bootstrap;

import org.jrdma.verbs.MemoryRegion;

/**
 * A peer's registered buffer as its RDMA WRITEs, READs and atomics name it: the virtual address
 * and the remote key ({@code rkey}) of a memory region, as perftest's key message carries them
 * ({@code struct pingpong_dest}'s {@code vaddr} and {@code rkey}). Both are unsigned on the wire;
 * Java holds them in a {@code long} and an {@code int} with the same bits, which is what
 * {@code SendWorkRequest.rdma(address, rkey)} takes. There is no length: perftest sends none, so
 * how much may be accessed is for the two programs to agree on.
 *
 * @param address the buffer's virtual address, as {@code ibv_mr.addr} gives it (unsigned 64 bits)
 * @param rkey the memory region's remote key, {@code ibv_mr.rkey} (unsigned 32 bits)
 */
public record RemoteBuffer(long address, int rkey) {
    /**
     * The buffer of a registered region: its address and rkey.
     *
     * @param mr the memory region
     * @return its address and rkey
     */
    public static RemoteBuffer of(MemoryRegion mr) {
        return new RemoteBuffer(mr.addr(), mr.rkey());
    }

    /**
     * The address only, as perftest prints it ({@code VAddr 0x00007f0000001000}): an rkey lets
     * whoever holds it reach the memory (RELIABILITY-SECURITY §5), so it stays out of logs. Use
     * {@link #rkey()} where it is really wanted.
     */
    @Override
    public String toString() {
        return String.format("VAddr 0x%016x, RKey hidden", address);
    }
}
