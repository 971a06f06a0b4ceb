/**
 * The verbs API: devices, PDs, MRs, MWs, CQs, QPs, SRQs and the provider SPI. A provider
 * (jrdma-soft, jrdma-native) is found by ServiceLoader; an application requires only this
 * module and puts a provider on its module path or class path.
 */
module org.jrdma.verbs {
    exports org.jrdma.verbs;
    exports org.jrdma.verbs.spi;
    // the Flight Recorder events the providers, the bootstrap and the CM commit
    requires transitive jdk.jfr;
    exports org.jrdma.verbs.jfr;
    // the MXBeans the providers register per device and QP (Jmx.Registration hands out an ObjectName)
    requires transitive java.management;
    exports org.jrdma.verbs.jmx;

    uses org.jrdma.verbs.spi.Provider;
}
