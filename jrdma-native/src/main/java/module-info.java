/**
 * The native provider: rdma-core's libibverbs and librdmacm through FFM. Give it native access
 * with {@code --enable-native-access=org.jrdma.ibv} on the module path (ALL-UNNAMED on the
 * class path); org.jrdma.ibv.ffi, the only package that touches native memory, stays inside.
 */
module org.jrdma.ibv {
    requires transitive org.jrdma.verbs;
    requires org.jrdma.cm;

    exports org.jrdma.ibv;

    provides org.jrdma.verbs.spi.Provider with org.jrdma.ibv.NativeProvider;
    provides org.jrdma.cm.spi.CmBackend with org.jrdma.ibv.cm.NativeCmBackend;
}
