package org.jrdma.bootstrap;

import org.jrdma.verbs.Gid;

/**
 * One side of a connection is on the shared-memory provider (jrdma-shm) and the other is not:
 * their QPs cannot reach each other, so the connection fails when the peer's info arrives,
 * before the QP takes anything from it, naming both sides. An shm GID is told by its first four
 * bytes, {@code fd 6a 73 6d} ({@code fd6a:736d:…}, "jsm" in a ULA prefix); every other
 * provider's GID is an address the network routes.
 */
public class ProviderMismatchException extends BootstrapException {
    /** The first four bytes of every shm GID. */
    private static final byte[] SHM_PREFIX = {(byte) 0xfd, 0x6a, 0x73, 0x6d};

    /** This side's GID. */
    private final transient Gid local;
    /** The GID the peer sent. */
    private final transient Gid remote;

    /**
     * A mismatch between this side's GID and the peer's.
     *
     * @param local this side's GID
     * @param remote the peer's GID
     */
    public ProviderMismatchException(Gid local, Gid remote) {
        super("the peer is " + side(remote) + " (GID " + remote + ") and this side is " + side(local) + " (GID " + local
                + "): an shm QP connects only to an shm QP; use the same --provider (JRDMA_PROVIDER) on both sides,"
                + " shm for two processes on one host, soft or native otherwise");
        this.local = local;
        this.remote = remote;
    }

    /**
     * Whether {@code gid} is a shared-memory provider's (first four bytes {@code fd 6a 73 6d}).
     *
     * @param gid a port GID
     * @return true for an shm GID
     */
    public static boolean isShm(Gid gid) {
        for (int i = 0; i < SHM_PREFIX.length; i++) {
            if (gid.byteAt(i) != SHM_PREFIX[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Throws when one GID is shm's and the other is not; a zero GID (an IB peer that sent only
     * its LID) counts as not shm's.
     *
     * @param local this side's GID
     * @param remote the peer's GID
     * @throws ProviderMismatchException when exactly one of them is shm's
     */
    public static void check(Gid local, Gid remote) {
        if (isShm(local) != isShm(remote)) {
            throw new ProviderMismatchException(local, remote);
        }
    }

    /** {@return this side's GID (null after deserialization)} */
    public Gid local() {
        return local;
    }

    /** {@return the peer's GID (null after deserialization)} */
    public Gid remote() {
        return remote;
    }

    private static String side(Gid gid) {
        return isShm(gid) ? "on shm (one host, shared memory)" : "not on shm";
    }
}
