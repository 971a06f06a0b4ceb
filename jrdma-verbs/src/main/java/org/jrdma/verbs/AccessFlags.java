package org.jrdma.verbs;

import java.util.StringJoiner;

/** {@code enum ibv_access_flags}: bits for memory regions and for a QP's qp_access_flags. */
public final class AccessFlags {
    /** {@code IBV_ACCESS_LOCAL_WRITE}: the device may write the region (receives, READ responses, atomic results). */
    public static final int LOCAL_WRITE = 1;
    /** {@code IBV_ACCESS_REMOTE_WRITE}: peers may RDMA WRITE into it; needs LOCAL_WRITE. */
    public static final int REMOTE_WRITE = 1 << 1;
    /** {@code IBV_ACCESS_REMOTE_READ}: peers may RDMA READ it. */
    public static final int REMOTE_READ = 1 << 2;
    /** {@code IBV_ACCESS_REMOTE_ATOMIC}: peers may run atomics on it; needs LOCAL_WRITE. */
    public static final int REMOTE_ATOMIC = 1 << 3;
    /** {@code IBV_ACCESS_MW_BIND}: memory windows may be bound to the region. */
    public static final int MW_BIND = 1 << 4;
    /** {@code IBV_ACCESS_ZERO_BASED}: peers address the region by offset from its start, not by address. */
    public static final int ZERO_BASED = 1 << 5;
    /** {@code IBV_ACCESS_ON_DEMAND}: an on-demand-paging (ODP) region. */
    public static final int ON_DEMAND = 1 << 6;
    /** {@code IBV_ACCESS_HUGETLB}: the memory is backed by huge pages. */
    public static final int HUGETLB = 1 << 7;
    /** {@code IBV_ACCESS_FLUSH_GLOBAL}: FLUSH with global-visibility placement is allowed. */
    public static final int FLUSH_GLOBAL = 1 << 8;
    /** {@code IBV_ACCESS_FLUSH_PERSISTENT}: FLUSH to persistence is allowed. */
    public static final int FLUSH_PERSISTENT = 1 << 9;

    private static final String[] NAMES = {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC",
            "MW_BIND", "ZERO_BASED", "ON_DEMAND", "HUGETLB", "FLUSH_GLOBAL", "FLUSH_PERSISTENT"};
    /** Every bit defined above. */
    public static final int ALL = (1 << NAMES.length) - 1;

    private AccessFlags() {
    }

    /**
     * Names the bits of an access mask, for messages.
     *
     * @param flags a set of {@code AccessFlags} bits
     * @return the names joined by {@code |}, e.g. {@code LOCAL_WRITE|REMOTE_READ}; {@code 0} for
     *     none; undefined bits as one hex value
     */
    public static String toString(int flags) {
        if (flags == 0) {
            return "0";
        }
        StringJoiner j = new StringJoiner("|");
        for (int i = 0; i < NAMES.length; i++) {
            if ((flags & (1 << i)) != 0) {
                j.add(NAMES[i]);
            }
        }
        if ((flags & ~ALL) != 0) {
            j.add("0x" + Integer.toHexString(flags & ~ALL));
        }
        return j.toString();
    }
}
