package org.jrdma.cm.wire;

import java.util.Arrays;

/**
 * Big-endian field access on a 256-byte MAD at absolute offsets. The put methods OR into the
 * array: encoders start from a zeroed MAD, so fields that share a byte (§7.6 masks) compose, and
 * the reserved bits stay zero.
 */
final class Wire {
    /** Where the CM data starts: §7.6 gives "CM off", and MAD off = CM off + 24. */
    static final int D = Mad.HEADER_SIZE;

    private Wire() {
    }

    static int u8(byte[] b, int at) {
        return b[at] & 0xFF;
    }

    static int u16(byte[] b, int at) {
        return u8(b, at) << 8 | u8(b, at + 1);
    }

    /** A 24-bit field: the three bytes from {@code at} (the upper part of a 32-bit word, §7.6). */
    static int u24(byte[] b, int at) {
        return u8(b, at) << 16 | u16(b, at + 1);
    }

    static int u32(byte[] b, int at) {
        return u16(b, at) << 16 | u16(b, at + 2);
    }

    static long u64(byte[] b, int at) {
        return (long) u32(b, at) << 32 | u32(b, at + 4) & 0xFFFF_FFFFL;
    }

    /** The bits of one byte under {@code mask}, shifted down. */
    static int bits(byte[] b, int at, int mask) {
        return (b[at] & mask) >>> Integer.numberOfTrailingZeros(mask);
    }

    static boolean flag(byte[] b, int at, int mask) {
        return (b[at] & mask) != 0;
    }

    static byte[] slice(byte[] b, int at, int length) {
        return Arrays.copyOfRange(b, at, at + length);
    }

    static void put8(byte[] b, int at, int v) {
        b[at] |= (byte) v;
    }

    static void put16(byte[] b, int at, int v) {
        put8(b, at, v >>> 8);
        put8(b, at + 1, v);
    }

    static void put24(byte[] b, int at, int v) {
        put8(b, at, v >>> 16);
        put16(b, at + 1, v);
    }

    static void put32(byte[] b, int at, int v) {
        put16(b, at, v >>> 16);
        put16(b, at + 2, v);
    }

    static void put64(byte[] b, int at, long v) {
        put32(b, at, (int) (v >>> 32));
        put32(b, at + 4, (int) v);
    }

    static void putBits(byte[] b, int at, int mask, int v) {
        put8(b, at, v << Integer.numberOfTrailingZeros(mask) & mask);
    }

    static void putFlag(byte[] b, int at, int mask, boolean v) {
        put8(b, at, v ? mask : 0);
    }

    static void putBytes(byte[] b, int at, byte[] v) {
        System.arraycopy(v, 0, b, at, v.length);
    }
}
