package org.jrdma.verbs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The 40 bytes a RoCE device writes in front of every UD (and GSI) receive (ROCEV2-FACTS §3.7):
 * for IPv4, 20 zero bytes then the packet's IPv4 header; for IPv6, the IPv6 header, laid out as
 * an IB GRH. Either way the sender's GID can be read back, which is how a UD receiver (the CM
 * above all) learns whom to answer — the kernel's {@code ib_init_ah_attr_from_wc} does the same.
 */
public final class Grh {
    /** The GRH area's size: a UD receive buffer needs this much room before the payload. */
    public static final int BYTES = 40;
    private static final int IPV4_HEADER = 20;

    private Grh() {
    }

    /**
     * The sender's GID: {@code ::ffff:a.b.c.d} for IPv4, the IPv6 source address otherwise.
     *
     * @param area the first {@link #BYTES} bytes of a UD receive buffer
     * @return the source GID
     * @throws IllegalArgumentException when the area is shorter than 40 bytes or holds no GRH
     */
    public static Gid sourceGid(MemorySegment area) {
        return isIpv4(area) ? ipv4Mapped(area, IPV4_HEADER + 12) : gidAt(area, 8);
    }

    /**
     * The GID the packet was addressed to (this device's).
     *
     * @param area the first {@link #BYTES} bytes of a UD receive buffer
     * @return the destination GID
     * @throws IllegalArgumentException when the area is shorter than 40 bytes or holds no GRH
     */
    public static Gid destinationGid(MemorySegment area) {
        return isIpv4(area) ? ipv4Mapped(area, IPV4_HEADER + 16) : gidAt(area, 24);
    }

    /**
     * IPv4 when the first 20 bytes are zero and an IPv4 header (version 4, IHL 5) follows; IPv6
     * when byte 0 says version 6 (an IPv6 header never starts with 20 zero bytes).
     *
     * @throws IllegalArgumentException neither form: not a GRH area
     */
    private static boolean isIpv4(MemorySegment area) {
        if (area.byteSize() < BYTES) {
            throw new IllegalArgumentException("a GRH area has " + BYTES + " bytes, not " + area.byteSize());
        }
        boolean zeros = area.asSlice(0, IPV4_HEADER).mismatch(MemorySegment.ofArray(new byte[IPV4_HEADER])) == -1;
        if (zeros && area.get(ValueLayout.JAVA_BYTE, IPV4_HEADER) == 0x45) {
            return true;
        }
        if ((area.get(ValueLayout.JAVA_BYTE, 0) >> 4 & 0xF) == 6) {
            return false;
        }
        throw new IllegalArgumentException("not a GRH area: neither 20 zero bytes and an IPv4 header nor an IPv6 header");
    }

    private static Gid ipv4Mapped(MemorySegment area, int offset) {
        byte[] raw = new byte[Gid.BYTES];
        raw[10] = (byte) 0xFF;
        raw[11] = (byte) 0xFF;
        MemorySegment.copy(area, ValueLayout.JAVA_BYTE, offset, raw, 12, 4);
        return Gid.of(raw);
    }

    private static Gid gidAt(MemorySegment area, int offset) {
        byte[] raw = new byte[Gid.BYTES];
        MemorySegment.copy(area, ValueLayout.JAVA_BYTE, offset, raw, 0, Gid.BYTES);
        return Gid.of(raw);
    }
}
