package org.jrdma.bootstrap.rendezvous;

/**
 * A key under the job's prefix holds what no rank of this version writes (a hand-written key, a
 * store shared with something else): the rendezvous stops with this error before anything is
 * connected, rather than guess.
 */
public class MalformedEntryException extends RendezvousException {
    /** The key (or file) that holds the bad value. */
    private final String key;

    /**
     * A malformed entry.
     *
     * @param key the key (or file) that holds it
     * @param problem what is wrong with it
     * @param cause the codec's error, or null
     */
    public MalformedEntryException(String key, String problem, Throwable cause) {
        super("malformed entry " + key + ": " + problem, cause);
        this.key = key;
    }

    /**
     * The key (or file) that holds the bad value.
     *
     * @return the key
     */
    public String key() {
        return key;
    }
}
