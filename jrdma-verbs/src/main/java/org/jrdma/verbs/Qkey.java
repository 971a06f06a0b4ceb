package org.jrdma.verbs;

/**
 * Q_Keys the IBA reserves. A Q_Key with the high-order bit set is "controlled": an unprivileged
 * consumer may not give one to its QP (the kernel's modify_qp returns EPERM), and a send WR whose
 * remote Q_Key has that bit set goes out with the sending QP's own Q_Key instead. Together these
 * keep an ordinary UD QP from sending with {@link #QP1}, i.e. from forging CM messages.
 */
public final class Qkey {
    /** The GSI QP's Q_Key (the kernel's IB_QP1_QKEY); CM MADs to QP1 carry it. */
    public static final int QP1 = 0x80010000;
    /** The high-order bit that makes a Q_Key controlled (the kernel's IB_QP_SET_QKEY). */
    public static final int CONTROLLED_BIT = 0x80000000;

    private Qkey() {
    }

    /**
     * Is this Q_Key controlled?
     *
     * @param qkey a Q_Key
     * @return true when its {@link #CONTROLLED_BIT} is set
     */
    public static boolean isControlled(int qkey) {
        return (qkey & CONTROLLED_BIT) != 0;
    }

    /**
     * How messages print a Q_Key.
     *
     * @param qkey a Q_Key
     * @return eight hex digits with a {@code 0x} prefix, e.g. {@code 0x80010000}
     */
    public static String hex(int qkey) {
        return String.format("0x%08x", qkey);
    }
}
