/**
 * Out-of-band exchanges of connection info: TCP (ibv_rc_pingpong and perftest compatible, with
 * TLS or a pre-shared key), a file, a static configuration.
 */
module org.jrdma.bootstrap {
    requires transitive org.jrdma.verbs;

    exports org.jrdma.bootstrap;
    exports org.jrdma.bootstrap.file;
    exports org.jrdma.bootstrap.fixed;
    exports org.jrdma.bootstrap.tcp;
    exports org.jrdma.bootstrap.rendezvous;

    // rendezvous stores: the file store is built in, etcd's comes with jrdma-etcd
    uses org.jrdma.bootstrap.rendezvous.RendezvousStoreProvider;
    provides org.jrdma.bootstrap.rendezvous.RendezvousStoreProvider with org.jrdma.bootstrap.file.FileStoreProvider;
}
