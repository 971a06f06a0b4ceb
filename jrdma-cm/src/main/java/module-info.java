/**
 * The connection manager (rdma_cm's API) over the GSI QP, with no TCP; a backend SPI lets
 * jrdma-native serve native devices with librdmacm.
 */
module org.jrdma.cm {
    requires transitive org.jrdma.verbs;

    exports org.jrdma.cm;
    exports org.jrdma.cm.spi;
    // PortSpace and RejectReason, which CmId's API takes and returns, are wire values
    exports org.jrdma.cm.wire;

    uses org.jrdma.cm.spi.CmBackend;
}
