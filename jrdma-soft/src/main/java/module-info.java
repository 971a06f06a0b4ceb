/**
 * The soft provider: RoCEv2 over UDP port 4791, unprivileged. Its API is the verbs API; it
 * exports no package to applications, only its provider. The tools (jrdma demo and chaos build
 * devices with impairments and read their counters) get the device classes and the impairment
 * settings by qualified exports, so nothing here is public API by accident.
 */
module org.jrdma.soft {
    requires org.jrdma.verbs;
    // UdpDatagrams sets IP_DONTFRAGMENT (RoCEv2 frames carry DF) through jdk.net's socket options
    // (DontFragment; on the class path a runtime without jdk.net opens devices without DF)
    requires jdk.net;

    exports org.jrdma.soft to org.jrdma.tools;
    exports org.jrdma.soft.net to org.jrdma.tools;

    provides org.jrdma.verbs.spi.Provider with org.jrdma.soft.SoftProvider;
}
