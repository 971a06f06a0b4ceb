/**
 * The shared-memory provider: RC queue pairs between processes (or contexts) on one host, where
 * the requester copies straight into the peer's registered memory. Its API is the verbs API; it
 * exports no package, only its provider.
 */
module org.jrdma.shm {
    requires org.jrdma.verbs;

    provides org.jrdma.verbs.spi.Provider with org.jrdma.shm.ShmProvider;
}
