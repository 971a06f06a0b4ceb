package org.jrdma.verbs;

/**
 * {@code struct ibv_sge}: one piece of a scatter/gather list, inside a registered memory
 * region. {@code addr} is the region's address space (for a soft MR, its segment's address).
 * Mutable so that work requests can be reused without allocation.
 */
public final class Sge {
    /** addr: the first byte, inside the region {@link #lkey} names. */
    public long addr;
    /** length: the number of bytes (an unsigned 32-bit value). */
    public int length;
    /** lkey: the local key of the memory region the bytes lie in. */
    public int lkey;

    /** An empty SGE (address, length and key 0), to be {@link #set} later. */
    public Sge() {
    }

    /**
     * An SGE over {@code length} bytes at {@code addr} of the region keyed {@code lkey}.
     *
     * @param addr   the first byte
     * @param length the number of bytes
     * @param lkey   the region's local key
     */
    public Sge(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
    }

    /**
     * Points this SGE elsewhere, so that a WR can be reused without allocating.
     *
     * @param addr   the first byte
     * @param length the number of bytes
     * @param lkey   the region's local key
     * @return this SGE
     */
    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /**
     * The whole of a memory region.
     *
     * @param mr the region
     * @return a new SGE over all of it
     * @throws ArithmeticException when the region is longer than an SGE can say (2^31 - 1 bytes)
     */
    public static Sge of(MemoryRegion mr) {
        return new Sge(mr.addr(), Math.toIntExact(mr.length()), mr.lkey());
    }

    /**
     * {@code length} bytes of a memory region starting {@code offset} bytes in (the range is not
     * checked here).
     *
     * @param mr     the region
     * @param offset bytes from the region's start
     * @param length the number of bytes
     * @return a new SGE
     */
    public static Sge of(MemoryRegion mr, long offset, int length) {
        return new Sge(mr.addr() + offset, length, mr.lkey());
    }

    @Override
    public String toString() {
        return "Sge{addr=0x" + Long.toHexString(addr) + ", length=" + length + "}";
    }
}
