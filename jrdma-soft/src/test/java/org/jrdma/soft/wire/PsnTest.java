package org.jrdma.soft.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class PsnTest {
    @Test
    void wrapsAt2To24() {
        assertThat(Psn.next(0xFFFFFF)).isZero();
        assertThat(Psn.next(5)).isEqualTo(6);
        assertThat(Psn.add(0xFFFFFE, 3)).isEqualTo(1);
        assertThat(Psn.add(1, -2)).isEqualTo(0xFFFFFF);
        assertThat(Psn.distance(0xFFFFFF, 1)).isEqualTo(2);
    }

    @Test
    void comparesAcrossTheWrapLikeRxe() {
        assertThat(Psn.compare(0, 0xFFFFFF)).isPositive();
        assertThat(Psn.compare(0xFFFFFF, 0)).isNegative();
        assertThat(Psn.compare(7, 7)).isZero();
        assertThat(Psn.isAfter(0x000010, 0xFFFFF0)).isTrue();
        assertThat(Psn.isBefore(0xFFFFF0, 0x000010)).isTrue();
        // The window edge: 2^23 - 1 ahead is after, 2^23 ahead is "before" (the invalid half).
        assertThat(Psn.compare(Psn.add(100, Psn.HALF_SPACE - 1), 100)).isPositive();
        assertThat(Psn.compare(Psn.add(100, Psn.HALF_SPACE), 100)).isNegative();
        assertThat(Psn.diff(Psn.add(100, Psn.HALF_SPACE), 100)).isEqualTo(-Psn.HALF_SPACE);
    }

    @Test
    void validatesThe24BitRange() {
        assertThat(Psn.isValid(0)).isTrue();
        assertThat(Psn.isValid(0xFFFFFF)).isTrue();
        assertThat(Psn.isValid(0x1000000)).isFalse();
        assertThat(Psn.isValid(-1)).isFalse();
        assertThat(Msn.isValid(0xFFFFFF)).isTrue();
        assertThat(Msn.isValid(-1)).isFalse();
    }

    @Test
    void addThenDiffGivesTheStepWithinHalfTheSpace() {
        Random r = new Random(4791);
        for (int n = 0; n < 10_000; n++) {
            addThenDiff(r.nextInt(0x1000000), r.nextInt(1 << 24) - (1 << 23));
        }
        addThenDiff(0, -(1 << 23));
        addThenDiff(0xFFFFFF, (1 << 23) - 1);
    }

    private static void addThenDiff(int psn, int step) {
        int moved = Psn.add(psn, step);
        assertThat(Psn.isValid(moved)).isTrue();
        assertThat(Psn.diff(moved, psn)).isEqualTo(step);
        assertThat(Integer.signum(Psn.compare(moved, psn))).isEqualTo(Integer.signum(step));
        assertThat(Integer.signum(Msn.compare(Msn.add(psn, step), psn))).isEqualTo(Integer.signum(step));
        assertThat(Psn.distance(psn, moved)).isEqualTo(step & 0xFFFFFF);
    }

    @Test
    void compareIsAntisymmetric() {
        Random r = new Random(4792);
        for (int n = 0; n < 10_000; n++) {
            antisymmetric(r.nextInt(0x1000000), r.nextInt(0x1000000));
        }
        antisymmetric(0, 0x800000);
        antisymmetric(0xFFFFFF, 0);
    }

    private static void antisymmetric(int a, int b) {
        if (Psn.diff(a, b) != -Psn.HALF_SPACE) {
            assertThat(Integer.signum(Psn.compare(a, b))).isEqualTo(-Integer.signum(Psn.compare(b, a)));
        }
        assertThat(Msn.next(a)).isEqualTo(Psn.next(a));
        assertThat(Msn.diff(a, b)).isEqualTo(Psn.diff(a, b));
    }
}
