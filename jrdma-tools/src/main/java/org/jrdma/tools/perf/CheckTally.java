package org.jrdma.tools.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code --check}'s account: what was verified, item by item, and the first mismatch. A mismatch
 * does not stop the run (the peer would be left waiting); the command fails at the end. The
 * summary names exactly what was looked at — for write_bw that is the final contents of the
 * target slots, not every WRITE (nothing tells the target when one lands), and it says so.
 */
final class CheckTally {
    /** One kind of thing a test verifies, as the summary names it. */
    enum Item {
        MESSAGE("message received", "messages received", "every byte"),
        WRITE("WRITE as it landed", "WRITEs as they landed", "every byte"),
        READ("READ", "READs", "every byte read"),
        ATOMIC_RESULT("atomic result", "atomic results", "the original value each returned"),
        COUNTER("target counter", "target counters", "the final value of each"),
        SLOT("target slot", "target slots", "the final contents of each: the last WRITE into it, every byte");

        private final String one;
        private final String many;
        private final String how;

        Item(String one, String many, String how) {
            this.one = one;
            this.many = many;
            this.how = how;
        }
    }

    private final long[] counts = new long[Item.values().length];
    private long verified;
    private long failed;
    private long writesIntoSlots;
    private String first;
    private final List<String> notes = new ArrayList<>();

    void ok(Item item) {
        counts[item.ordinal()]++;
        verified++;
    }

    void fail(String what) {
        if (first == null) {
            first = what;
        }
        failed++;
    }

    /** write_bw: how many WRITEs went into the slots that {@link Item#SLOT} counts. */
    void writesIntoSlots(long writes) {
        writesIntoSlots += writes;
    }

    /** Something the summary must add to the counts, e.g. what a transport lost. */
    void note(String what) {
        notes.add(what);
    }

    List<String> notes() {
        return notes;
    }

    long verified() {
        return verified;
    }

    long count(Item item) {
        return counts[item.ordinal()];
    }

    long failed() {
        return failed;
    }

    String firstFailure() {
        return first;
    }

    boolean passed() {
        return failed == 0;
    }

    /**
     * What was verified, e.g. {@code "60 messages received (every byte)"}, or null when this side
     * verified nothing (its peer checks what arrives there).
     */
    String verifiedText() {
        List<String> parts = new ArrayList<>();
        for (Item item : Item.values()) {
            long n = counts[item.ordinal()];
            if (n == 0) {
                continue;
            }
            String how = item == Item.SLOT ? item.how + "; " + writesIntoSlots + " WRITEs in all" : item.how;
            parts.add(n + " " + (n == 1 ? item.one : item.many) + " (" + how + ")");
        }
        return parts.isEmpty() ? null : String.join(", ", parts);
    }

    /** The summary line {@code --check} prints after the table. */
    String summary() {
        String what = verifiedText();
        if (what == null) {
            return " --check: nothing verified on this side (a peer with --check verifies what arrives there); " + failed
                    + " failed";
        }
        return " --check: verified " + what + "; " + failed + " failed";
    }
}
