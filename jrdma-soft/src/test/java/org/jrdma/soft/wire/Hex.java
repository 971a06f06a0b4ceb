package org.jrdma.soft.wire;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Hex helpers for the test vectors. */
final class Hex {
    private Hex() {
    }

    /** Bytes from hex, ignoring spaces and newlines. */
    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }

    static ByteBuffer buffer(String hex) {
        return ByteBuffer.wrap(bytes(hex));
    }

    static String of(ByteBuffer buffer, int offset, int length) {
        byte[] out = new byte[length];
        buffer.get(offset, out);
        return HexFormat.of().formatHex(out);
    }

    /** An IPv4 address "a.b.c.d" as the big-endian int the ICRC API takes. */
    static int ipv4(String dotted) {
        String[] parts = dotted.split("\\.");
        int address = 0;
        for (String part : parts) {
            address = address << 8 | Integer.parseInt(part);
        }
        return address;
    }
}
