package org.jrdma.verbs;

/** {@code enum ibv_mtu}: the path MTU as the verbs encode it (1..5) and its size in bytes. */
public enum Mtu {
    /** {@code IBV_MTU_256}: 256-byte packets. */
    MTU_256(1, 256),
    /** {@code IBV_MTU_512}: 512-byte packets. */
    MTU_512(2, 512),
    /** {@code IBV_MTU_1024}: 1024-byte packets. */
    MTU_1024(3, 1024),
    /** {@code IBV_MTU_2048}: 2048-byte packets. */
    MTU_2048(4, 2048),
    /** {@code IBV_MTU_4096}: 4096-byte packets. */
    MTU_4096(5, 4096);

    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** {@return the ibv_mtu enum value (1 = 256 … 5 = 4096)} */
    public int value() {
        return value;
    }

    /** {@return the payload size in bytes, 256 to 4096} */
    public int bytes() {
        return bytes;
    }

    /**
     * The MTU of a size in bytes, as rc_pingpong's pp_mtu_to_enum maps {@code -m}.
     *
     * @param bytes 256, 512, 1024, 2048 or 4096
     * @return that MTU
     * @throws VerbsException EINVAL for any other size
     */
    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new VerbsException(Errno.EINVAL, "invalid MTU " + bytes + ": must be 256, 512, 1024, 2048 or 4096");
    }

    /**
     * The MTU of an ibv_mtu enum value.
     *
     * @param value 1 to 5
     * @return that MTU
     * @throws VerbsException EINVAL for any other value
     */
    public static Mtu fromValue(int value) {
        for (Mtu m : values()) {
            if (m.value == value) {
                return m;
            }
        }
        throw new VerbsException(Errno.EINVAL, "invalid ibv_mtu value " + value + ": must be 1..5");
    }

    /**
     * The largest IB MTU that fits an Ethernet MTU, as rxe computes it (subtract 80, round down).
     *
     * @param ethernetMtu the interface's MTU in bytes
     * @return the largest MTU at most {@code ethernetMtu - 80} bytes; MTU_256 when none is
     */
    public static Mtu forEthernetMtu(int ethernetMtu) {
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= ethernetMtu - 80) {
                best = m;
            }
        }
        return best;
    }

    /**
     * The smaller of two MTUs, as the two sides of a connection agree on one.
     *
     * @param other the other MTU
     * @return this or {@code other}, whichever has fewer bytes
     */
    public Mtu min(Mtu other) {
        return bytes <= other.bytes ? this : other;
    }
}
