package org.jrdma.bootstrap.rendezvous;

import java.util.List;

/**
 * Ranks of the job are missing: some left or died while this rank waited (their lease expired,
 * or they closed), others never came before the deadline. The message names them all.
 */
public class MissingRanksException extends RendezvousException {
    /** Ranks that joined and then left or died. */
    private final List<Integer> departed;
    /** Ranks not there when the deadline passed. */
    private final List<Integer> neverCame;
    /** The run. */
    private final long epoch;

    /**
     * Missing ranks.
     *
     * @param job the job id
     * @param epoch the run
     * @param waitingFor what this rank waited for, "connection info", "barrier verified"
     * @param departed ranks that joined and then left or died, ascending
     * @param neverCame ranks that had not done their part when the deadline passed, ascending
     */
    public MissingRanksException(String job, long epoch, String waitingFor, List<Integer> departed, List<Integer> neverCame) {
        super(message(job, epoch, waitingFor, departed, neverCame));
        this.departed = List.copyOf(departed);
        this.neverCame = List.copyOf(neverCame);
        this.epoch = epoch;
    }

    /**
     * Ranks that joined and then left or died (their lease expired).
     *
     * @return ascending ranks, maybe empty
     */
    public List<Integer> departed() {
        return departed;
    }

    /**
     * Ranks that had not done their part when the deadline passed.
     *
     * @return ascending ranks, maybe empty
     */
    public List<Integer> neverCame() {
        return neverCame;
    }

    /**
     * The run in which they were missing.
     *
     * @return the epoch
     */
    public long epoch() {
        return epoch;
    }

    private static String message(String job, long epoch, String waitingFor, List<Integer> departed, List<Integer> neverCame) {
        StringBuilder s = new StringBuilder("job ").append(job).append(" epoch ").append(epoch).append(": ");
        if (!departed.isEmpty()) {
            s.append(departed.size() == 1 ? "rank " : "ranks ").append(Ranges.of(departed)).append(" left or died (lease gone)");
        }
        if (!neverCame.isEmpty()) {
            if (!departed.isEmpty()) {
                s.append("; ");
            }
            s.append(neverCame.size() == 1 ? "rank " : "ranks ").append(Ranges.of(neverCame))
                    .append(" missing when the deadline passed");
        }
        return s.append(", waiting for ").append(waitingFor).toString();
    }
}
