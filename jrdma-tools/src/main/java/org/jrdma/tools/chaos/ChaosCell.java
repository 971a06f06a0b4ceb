package org.jrdma.tools.chaos;

import java.util.List;

/**
 * One cell of the chaos matrix (RELIABILITY-SECURITY §6.9): what happens to the packets each
 * side sends, in {@code Impairment} text without a seed (the run adds it), and whether the
 * link is cut for a while ({@link Partition}).
 *
 * @param id the catalogue's name, e.g. CH-01
 * @param name what it does, for the table
 * @param fromA impairment of A's outgoing packets (requests), "" for none
 * @param fromB impairment of B's outgoing packets (ACKs, responses), "" for none
 * @param partition a cut of A's port in the middle of the run, or NONE
 */
public record ChaosCell(String id, String name, String fromA, String fromB, Partition partition) {
    /** How a cell cuts the link. */
    public enum Partition {
        NONE,
        /** Down for two retransmit timeouts, then up again: within the retry budget. */
        HEAL,
        /** Down for good: the retry budget runs out (RETRY_EXC_ERR expected). */
        NO_HEAL
    }

    public boolean expectsError() {
        return partition == Partition.NO_HEAL;
    }

    /** The cells run by default: the baseline, then CH-01 … CH-09 as the issue asks. */
    public static List<ChaosCell> standard() {
        return List.of(
                new ChaosCell("CH-00", "baseline: no impairment", "", "", Partition.NONE),
                both("CH-01", "loss 0.1%", "loss=0.1%"),
                both("CH-01", "loss 1%", "loss=1%"),
                both("CH-01", "loss 5%", "loss=5%"),
                both("CH-01", "loss 10%", "loss=10%"),
                both("CH-02", "burst loss (Gilbert-Elliott, mean 1%)", "burst=p:0.003/r:0.3/h:0/k:1"),
                both("CH-03", "reordering 1% (gap 3)", "reorder=1%/gap:3"),
                both("CH-04", "duplication 1%", "dup=1%"),
                both("CH-05", "corruption 0.1%", "corrupt=0.1%"),
                both("CH-06", "delay 500us ± 250us", "delay=500us/jitter:250us"),
                new ChaosCell("CH-07", "loss 5% on ACKs/responses only", "", "loss=5%", Partition.NONE),
                new ChaosCell("CH-08", "partition, healed within the budget", "", "", Partition.HEAL),
                new ChaosCell("CH-08", "partition, not healed", "", "", Partition.NO_HEAL),
                both("CH-09", "all at once", "loss=1%,burst=p:0.001/r:0.3/h:0/k:1,reorder=1%/gap:3,dup=1%,corrupt=0.1%,"
                        + "delay=100us/jitter:50us"));
    }

    private static ChaosCell both(String id, String name, String impairment) {
        return new ChaosCell(id, name, impairment, impairment, Partition.NONE);
    }
}
