package org.jrdma.cm.wire;

/**
 * One row of an IBA vol 1 §12.6 message table: the field {@code name} is {@code bitWidth} bits that
 * start at bit {@code bitOffset} of byte {@code byteOffset}. Offsets count from the start of the
 * table's area (the CM data after the MAD header, for a message), and bits as IBA draws them and
 * Linux's {@code CM_FIELD_BLOC} takes them: bit 0 is the most significant bit of its byte, and a
 * field runs on big-endian into the bytes after.
 *
 * <pre>
 *   byte 43 of a REQ:   bit 0 1 2 3 4 | 5 6 | 7
 *                       Remote CM Resp.  TST   E2E flow control
 *                       (43, 0, 5)       (43, 5, 2)  (43, 7, 1)
 * </pre>
 *
 * <p>{@code name} is the record component the field fills (dotted into a nested record, e.g.
 * {@code primaryPath.flowLabel}). A component Linux splits over reserved bytes (the ECE vendor IDs
 * of REP and SIDR_REP) has one row per piece, most significant piece first.
 */
record CmField(String name, int byteOffset, int bitOffset, int bitWidth) {
    CmField {
        if (byteOffset < 0 || bitOffset < 0 || bitOffset > 7 || bitWidth < 1) {
            throw new IllegalArgumentException(name + ": byte " + byteOffset + " bit " + bitOffset + " width " + bitWidth);
        }
    }

    /** A field inside one byte, or running on from it: {@code CM_FIELD_BLOC(byte, bit, width)}. */
    static CmField bits(String name, int byteOffset, int bitOffset, int bitWidth) {
        return new CmField(name, byteOffset, bitOffset, bitWidth);
    }

    /** A field that starts a byte: {@code CM_FIELD8/16/32_LOC(byte, width)} and 64-bit IDs. */
    static CmField at(String name, int byteOffset, int bitWidth) {
        return new CmField(name, byteOffset, 0, bitWidth);
    }

    /** A one-bit flag. */
    static CmField flag(String name, int byteOffset, int bitOffset) {
        return new CmField(name, byteOffset, bitOffset, 1);
    }

    /** Bytes copied as they are: GIDs, ARI, private data ({@code CM_FIELD_MLOC}). */
    static CmField bytes(String name, int byteOffset, int length) {
        return new CmField(name, byteOffset, 0, length * 8);
    }

    /** This row moved {@code by} bytes on and its name put under {@code prefix}: a path inside a REQ. */
    CmField nestedIn(String prefix, int by) {
        return new CmField(prefix + "." + name, byteOffset + by, bitOffset, bitWidth);
    }

    /** The first bit after the field, counted from bit 0 of byte 0. */
    int endBit() {
        return byteOffset * 8 + bitOffset + bitWidth;
    }

    boolean byteAligned() {
        return bitOffset == 0 && bitWidth % 8 == 0;
    }

    /** The field's value from the area at {@code base} of {@code b}; the field spans at most 8 bytes. */
    long get(byte[] b, int base) {
        int n = spannedBytes();
        long word = 0;
        for (int i = 0; i < n; i++) {
            word = word << 8 | b[base + byteOffset + i] & 0xFF;
        }
        return word >>> n * 8 - bitOffset - bitWidth & mask();
    }

    /**
     * Sets the field's bits and no others, so fields sharing a byte compose in any order. A value
     * wider than the field is a disagreement between a record's checks and its table: a bug here.
     */
    void put(byte[] b, int base, long value) {
        if ((value & ~mask()) != 0) {
            throw new IllegalStateException(name + " = 0x" + Long.toHexString(value) + " does not fit in " + bitWidth + " bits");
        }
        int n = spannedBytes();
        int shift = n * 8 - bitOffset - bitWidth;
        long keep = ~(mask() << shift);
        long bits = value << shift;
        for (int i = n - 1; i >= 0; i--) {
            int at = base + byteOffset + i;
            b[at] = (byte) (b[at] & keep | bits);
            keep >>= 8;
            bits >>>= 8;
        }
    }

    long mask() {
        return bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
    }

    private int spannedBytes() {
        int n = (bitOffset + bitWidth + 7) / 8;
        if (n > 8) {
            throw new IllegalStateException(name + " spans " + n + " bytes; a number field spans at most 8");
        }
        return n;
    }
}
