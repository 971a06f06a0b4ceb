package org.jrdma.verbs;

/**
 * {@code struct ibv_sge}: one piece of a scatter/gather list, inside a registered memory
 * region. {@code addr} is the region's address space (for a soft MR, its segment's address).
 * Mutable so that work requests can be reused without allocation.
 */
public final class Sge {
    public long addr;
    public int length;
    public int lkey;

    public Sge() {
    }

    public Sge(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
    }

    public Sge set(long addr, int length, int lkey) {
        this.addr = addr;
        this.length = length;
        this.lkey = lkey;
        return this;
    }

    /** The whole of a memory region. */
    public static Sge of(MemoryRegion mr) {
        return new Sge(mr.addr(), Math.toIntExact(mr.length()), mr.lkey());
    }

    /** {@code length} bytes of a memory region starting {@code offset} bytes in. */
    public static Sge of(MemoryRegion mr, long offset, int length) {
        return new Sge(mr.addr() + offset, length, mr.lkey());
    }

    @Override
    public String toString() {
        return "Sge{addr=0x" + Long.toHexString(addr) + ", length=" + length + "}";
    }
}
