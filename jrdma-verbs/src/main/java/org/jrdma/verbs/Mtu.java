package org.jrdma.verbs;

/** {@code enum ibv_mtu}: the path MTU as the verbs encode it (1..5) and its size in bytes. */
public enum Mtu {
    MTU_256(1, 256), MTU_512(2, 512), MTU_1024(3, 1024), MTU_2048(4, 2048), MTU_4096(5, 4096);

    private final int value;
    private final int bytes;

    Mtu(int value, int bytes) {
        this.value = value;
        this.bytes = bytes;
    }

    /** The ibv_mtu enum value (1 = 256 … 5 = 4096). */
    public int value() {
        return value;
    }

    public int bytes() {
        return bytes;
    }

    /** 256, 512, 1024, 2048 or 4096; anything else is refused (rc_pingpong's pp_mtu_to_enum). */
    public static Mtu fromBytes(int bytes) {
        for (Mtu m : values()) {
            if (m.bytes == bytes) {
                return m;
            }
        }
        throw new VerbsException(Errno.EINVAL, "invalid MTU " + bytes + ": must be 256, 512, 1024, 2048 or 4096");
    }

    public static Mtu fromValue(int value) {
        for (Mtu m : values()) {
            if (m.value == value) {
                return m;
            }
        }
        throw new VerbsException(Errno.EINVAL, "invalid ibv_mtu value " + value + ": must be 1..5");
    }

    /** The largest IB MTU that fits an Ethernet MTU, as rxe computes it (subtract 80, round down). */
    public static Mtu forEthernetMtu(int ethernetMtu) {
        Mtu best = MTU_256;
        for (Mtu m : values()) {
            if (m.bytes <= ethernetMtu - 80) {
                best = m;
            }
        }
        return best;
    }

    public Mtu min(Mtu other) {
        return bytes <= other.bytes ? this : other;
    }
}
