package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.ValueLayout;
import org.jrdma.tools.OwnDevices;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * write_bw's --check on the target: the final contents of each slot, filled here as the peer's
 * WRITEs would have left them, then spoiled one way or another. A corrupted byte fails on RC and
 * on UC; on UC a slot may instead hold an earlier WRITE into it, in part, or nothing (a lost WRITE
 * places the packets before its loss and drops the rest), which is counted, not failed.
 */
class TargetCheckTest {
    private static final int SIZE = 16384;
    private static final int MTU = 4096;
    private static final int SALT = DataPattern.CLIENT_SALT;

    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("tcheck");

    /** 1000 WRITEs of 16 KiB cycle through 64 slots (1 MiB): slot x last got WRITE x + 15 × 64 (x < 40) or x + 14 × 64. */
    private static final long WRITES = 1000;

    private static PerfResources resources(QpType type) {
        PerfConfig c = TablesTest.config(PerfTest.WRITE_BW, null, false, type, AtomicType.FETCH_AND_ADD).withSize(SIZE);
        return new PerfResources(Verbs.device(DEVICE.name()).open(), c, PerfBuffer.allocate(SIZE, false, 1), 16, 1, 0);
    }

    private static int slots() {
        return BufferLayout.remoteSlots(SIZE, PerfExchange.CYCLE_BUFFER, true);
    }

    private static long slotOffset(PerfResources r, long x) {
        return r.layout.targetOffset(0) + x * BufferLayout.stride(SIZE);
    }

    private static long lastInto(long x) {
        return x + (WRITES - 1 - x) / slots() * slots();
    }

    /** Every slot as the WRITEs left it. */
    private static void fillAsWritten(PerfResources r) {
        for (long x = 0; x < slots(); x++) {
            DataPattern.fill(r.buffer, slotOffset(r, x), SIZE, lastInto(x), SALT, 0);
        }
    }

    private static CheckTally check(PerfResources r) {
        CheckTally tally = new CheckTally();
        TargetCheck.verify(r, Verb.WRITE, new BwReport(SIZE, WRITES, 0, 0, 0), 1, PerfExchange.CYCLE_BUFFER, SALT, MTU, 0, tally);
        return tally;
    }

    @ParameterizedTest
    @EnumSource(value = QpType.class, names = {"RC", "UC"})
    void slotsHoldingTheirLastWriteAllVerify(QpType type) {
        try (PerfResources r = resources(type)) {
            fillAsWritten(r);
            CheckTally tally = check(r);
            assertThat(tally.verified()).isEqualTo(slots());
            assertThat(tally.failed()).isZero();
            assertThat(tally.notes()).isEmpty();
            assertThat(tally.summary()).isEqualTo(" --check: verified 64 target slots (the final contents of each: the last WRITE"
                    + " into it, every byte; 1000 WRITEs in all); 0 failed");
        }
    }

    /** One byte anywhere in a slot, and the check names that slot and byte. */
    @ParameterizedTest
    @EnumSource(value = QpType.class, names = {"RC", "UC"})
    void aCorruptedByteFails(QpType type) {
        try (PerfResources r = resources(type)) {
            fillAsWritten(r);
            long at = slotOffset(r, 7) + 5000;
            r.buffer.set(ValueLayout.JAVA_BYTE, at, (byte) (r.buffer.get(ValueLayout.JAVA_BYTE, at) ^ 0x10));
            CheckTally tally = check(r);
            assertThat(tally.failed()).isEqualTo(1);
            assertThat(tally.verified()).isEqualTo(slots() - 1);
            assertThat(tally.firstFailure()).startsWith("WRITE " + lastInto(7) + " of QP 0 (slot 7) differs at byte "
                    + (type == QpType.UC ? 4096 : 5000)); // UC names the piece (path MTU) that is no WRITE's
        }
    }

    /** UC lost the last WRITE into slot 3 after its first packet, and never delivered one into slot 9. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void ucCountsALostWriteButRcFailsIt(boolean uc) {
        try (PerfResources r = resources(uc ? QpType.UC : QpType.RC)) {
            fillAsWritten(r);
            long torn = slotOffset(r, 3);
            DataPattern.fill(r.buffer, torn + MTU, SIZE - MTU, lastInto(3) - slots(), SALT, MTU); // the earlier WRITE's rest
            r.buffer.asSlice(slotOffset(r, 9), SIZE).fill((byte) 0);
            CheckTally tally = check(r);
            if (uc) {
                assertThat(tally.failed()).isZero();
                assertThat(tally.verified()).isEqualTo(slots());
                assertThat(tally.notes()).containsExactly(
                        "2 of the slots hold an earlier WRITE into them, in part or whole, or nothing: UC lost the later ones");
            } else {
                assertThat(tally.failed()).isEqualTo(2);
            }
        }
    }

    /** A piece of a WRITE that went to another slot is misplaced, not lost. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aPieceOfAnotherSlotsWriteFails(boolean uc) {
        try (PerfResources r = resources(uc ? QpType.UC : QpType.RC)) {
            fillAsWritten(r);
            DataPattern.fill(r.buffer, slotOffset(r, 5) + MTU, MTU, lastInto(6), SALT, MTU);
            CheckTally tally = check(r);
            assertThat(tally.failed()).isEqualTo(1);
            assertThat(tally.firstFailure()).contains("(slot 5) differs at byte");
        }
    }
}
