package org.jrdma.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * A 128-bit GID. On RoCEv2 a GID is an IPv6 address; an IPv4 endpoint's GID is the
 * IPv4-mapped address {@code ::ffff:a.b.c.d} (bytes 0–9 zero, 10–11 0xFF, 12–15 the address).
 */
public final class Gid {
    /** A GID's size in bytes. */
    public static final int BYTES = 16;
    /** The all-zero GID ({@code ::}), an unset or unused GID table entry. */
    public static final Gid ZERO = new Gid(new byte[BYTES]);
    private static final HexFormat HEX = HexFormat.of();

    private final byte[] raw;

    private Gid(byte[] raw) {
        this.raw = raw;
    }

    /**
     * A GID from its 16 raw bytes (copied).
     *
     * @param raw the bytes in network order
     * @return the GID
     * @throws IllegalArgumentException when {@code raw} does not have 16 bytes
     */
    public static Gid of(byte[] raw) {
        if (raw.length != BYTES) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + raw.length);
        }
        return new Gid(raw.clone());
    }

    /**
     * The RoCEv2 GID of an IP address: IPv4-mapped for IPv4, the address itself for IPv6.
     *
     * @param address an IPv4 or IPv6 address
     * @return its GID
     */
    public static Gid of(InetAddress address) {
        byte[] raw = new byte[BYTES];
        byte[] ip = address.getAddress();
        if (address instanceof Inet4Address) {
            raw[10] = (byte) 0xFF;
            raw[11] = (byte) 0xFF;
            System.arraycopy(ip, 0, raw, 12, 4);
        } else {
            System.arraycopy(ip, 0, raw, 0, BYTES);
        }
        return new Gid(raw);
    }

    /**
     * Parses 32 hex digits (the raw byte order, as rc_pingpong sends it).
     *
     * @param hex32 32 hex digits, no separators
     * @return the GID
     * @throws IllegalArgumentException when it is not 32 hex digits
     */
    public static Gid fromHex(CharSequence hex32) {
        if (hex32.length() != 2 * BYTES) {
            throw new IllegalArgumentException("a GID is 32 hex digits, not " + hex32.length());
        }
        return new Gid(HEX.parseHex(hex32));
    }

    /** {@return a copy of the 16 raw bytes, in network order} */
    public byte[] toBytes() {
        return raw.clone();
    }

    /**
     * Copies the 16 raw bytes into an array, without allocating.
     *
     * @param dst    the array to write
     * @param offset where the first byte goes
     * @throws IndexOutOfBoundsException when fewer than 16 bytes follow {@code offset}
     */
    public void copyTo(byte[] dst, int offset) {
        System.arraycopy(raw, 0, dst, offset, BYTES);
    }

    /**
     * One raw byte.
     *
     * @param index 0 to 15, in network order
     * @return that byte
     * @throws IndexOutOfBoundsException for an index outside 0..15
     */
    public byte byteAt(int index) {
        return raw[index];
    }

    /** {@return whether every byte is zero, as in {@link #ZERO}} */
    public boolean isZero() {
        for (byte b : raw) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@return true for {@code ::ffff:a.b.c.d}, an IPv4 endpoint's GID} */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (raw[i] != 0) {
                return false;
            }
        }
        return raw[10] == (byte) 0xFF && raw[11] == (byte) 0xFF;
    }

    /** {@return true for ff00::/8, a multicast GID} */
    public boolean isMulticast() {
        return raw[0] == (byte) 0xFF;
    }

    /** {@return the interface ID (low 64 bits); rc_pingpong sets a GRH only when it is non-zero} */
    public long interfaceId() {
        long v = 0;
        for (int i = 8; i < 16; i++) {
            v = (v << 8) | (raw[i] & 0xFF);
        }
        return v;
    }

    /** {@return the IP address this GID stands for: an {@link Inet4Address} when IPv4-mapped} */
    public InetAddress toInetAddress() {
        try {
            if (isIpv4Mapped()) {
                return InetAddress.getByAddress(Arrays.copyOfRange(raw, 12, 16));
            }
            return Inet6Address.getByAddress(null, raw.clone(), -1);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // cannot happen: the length is right
        }
    }

    /** {@return 32 lower-case hex digits in raw byte order} */
    public String toHex() {
        return HEX.formatHex(raw);
    }

    /** As inet_ntop(AF_INET6) prints it: {@code ::ffff:192.168.1.1}, {@code ::} for zero. */
    @Override
    public String toString() {
        if (isZero()) {
            return "::";
        }
        if (isIpv4Mapped()) {
            return "::ffff:" + (raw[12] & 0xFF) + "." + (raw[13] & 0xFF) + "." + (raw[14] & 0xFF) + "." + (raw[15] & 0xFF);
        }
        return Ipv6Text.format(raw);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Gid g && Arrays.equals(raw, g.raw);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(raw);
    }
}
