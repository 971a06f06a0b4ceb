package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The GF(2) facts the ICRC solver rests on, checked against java.util.zip.CRC32 itself. */
class Crc32PolyTest {
    private final Random random = new Random(0x5EED);

    @Test
    void xInverseIsTheInverseOfX() {
        assertThat(Crc32Poly.multiplyMod(Crc32Poly.X, Crc32Poly.X_INVERSE)).isEqualTo(Crc32Poly.ONE);
        assertThat(Crc32Poly.xPow(0)).isEqualTo(Crc32Poly.ONE);
        assertThat(Crc32Poly.xPow(1)).isEqualTo(Crc32Poly.X);
        assertThat(Crc32Poly.xInversePow(1)).isEqualTo(Crc32Poly.X_INVERSE);
    }

    @Test
    void multiplicationIsACommutativeRingWithUnitOne() {
        for (int i = 0; i < 1000; i++) {
            int a = random.nextInt();
            int b = random.nextInt();
            int c = random.nextInt();
            assertThat(Crc32Poly.multiplyMod(a, b)).isEqualTo(Crc32Poly.multiplyMod(b, a));
            assertThat(Crc32Poly.multiplyMod(a, Crc32Poly.ONE)).isEqualTo(a);
            assertThat(Crc32Poly.multiplyMod(Crc32Poly.multiplyMod(a, b), c))
                    .isEqualTo(Crc32Poly.multiplyMod(a, Crc32Poly.multiplyMod(b, c)));
            assertThat(Crc32Poly.multiplyMod(a, b ^ c))
                    .isEqualTo(Crc32Poly.multiplyMod(a, b) ^ Crc32Poly.multiplyMod(a, c));
        }
    }

    @Test
    void powersAndInversePowersCancel() {
        for (int i = 0; i < 1000; i++) {
            int n = random.nextInt(1 << 22);
            assertThat(Crc32Poly.multiplyMod(Crc32Poly.xPow(n), Crc32Poly.xInversePow(n))).isEqualTo(Crc32Poly.ONE);
            assertThat(Crc32Poly.xPow(n + 1)).isEqualTo(Crc32Poly.multiplyMod(Crc32Poly.xPow(n), Crc32Poly.X));
        }
    }

    /**
     * The identity IcrcVerifier solves: for equal-length messages, XORing 4 bytes w at position p
     * changes the CRC by w(x)·x^(32 + 8k) mod P, k = bytes after them, w read little-endian.
     */
    @Test
    void aFourByteChangeShiftsTheCrcByAPowerOfX() {
        CRC32 crc = new CRC32();
        for (int i = 0; i < 500; i++) {
            byte[] message = new byte[4 + random.nextInt(2000)];
            random.nextBytes(message);
            int p = random.nextInt(message.length - 3);
            int w = random.nextInt();
            crc.reset();
            crc.update(message);
            int before = (int) crc.getValue();
            for (int j = 0; j < 4; j++) {
                message[p + j] ^= (byte) (w >>> 8 * j);
            }
            crc.reset();
            crc.update(message);
            int k = message.length - p - 4;
            assertThat(before ^ (int) crc.getValue())
                    .isEqualTo(Crc32Poly.multiplyMod(w, Crc32Poly.xPow(32 + 8 * k)));
        }
    }
}
