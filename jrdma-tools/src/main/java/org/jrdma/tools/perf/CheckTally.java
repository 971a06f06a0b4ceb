package org.jrdma.tools.perf;

/**
 * {@code --check}'s account: how many messages or atomics were verified and the first mismatch.
 * A mismatch does not stop the run (the peer would be left waiting); the command fails at the end.
 */
final class CheckTally {
    private long verified;
    private long failed;
    private String first;
    private final java.util.List<String> notes = new java.util.ArrayList<>();

    void ok() {
        verified++;
    }

    void fail(String what) {
        if (first == null) {
            first = what;
        }
        failed++;
    }

    /** Something the summary must add to the counts, e.g. what a transport lost. */
    void note(String what) {
        notes.add(what);
    }

    java.util.List<String> notes() {
        return notes;
    }

    long verified() {
        return verified;
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
}
