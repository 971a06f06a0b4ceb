package org.jrdma.bootstrap.rendezvous;

/**
 * The store did not answer: unreachable, stopped, refused the credentials, or a request passed
 * its deadline ({@link StoreOptions#requestTimeout}).
 */
public class StoreUnavailableException extends RendezvousException {
    /** The store that did not answer. */
    private final String address;

    /**
     * A store that did not answer.
     *
     * @param address the store, as {@link RendezvousStore#address}
     * @param doing what this rank asked of it, "publishing rank 3's info"
     * @param cause the client's error, or null
     */
    public StoreUnavailableException(String address, String doing, Throwable cause) {
        super("store " + address + " did not answer while " + doing + (cause == null ? "" : ": " + rootMessage(cause)), cause);
        this.address = address;
    }

    /**
     * The store that did not answer.
     *
     * @return its address
     */
    public String address() {
        return address;
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m == null ? "" : " " + m);
    }
}
