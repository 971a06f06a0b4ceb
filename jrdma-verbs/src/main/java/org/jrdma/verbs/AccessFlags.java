package org.jrdma.verbs;

import java.util.StringJoiner;

/** {@code enum ibv_access_flags}: bits for memory regions and for a QP's qp_access_flags. */
public final class AccessFlags {
    public static final int LOCAL_WRITE = 1;
    public static final int REMOTE_WRITE = 1 << 1;
    public static final int REMOTE_READ = 1 << 2;
    public static final int REMOTE_ATOMIC = 1 << 3;
    public static final int MW_BIND = 1 << 4;
    public static final int ZERO_BASED = 1 << 5;
    public static final int ON_DEMAND = 1 << 6;
    public static final int HUGETLB = 1 << 7;
    public static final int FLUSH_GLOBAL = 1 << 8;
    public static final int FLUSH_PERSISTENT = 1 << 9;

    private static final String[] NAMES = {"LOCAL_WRITE", "REMOTE_WRITE", "REMOTE_READ", "REMOTE_ATOMIC",
            "MW_BIND", "ZERO_BASED", "ON_DEMAND", "HUGETLB", "FLUSH_GLOBAL", "FLUSH_PERSISTENT"};
    /** Every bit defined above. */
    public static final int ALL = (1 << NAMES.length) - 1;

    private AccessFlags() {
    }

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
