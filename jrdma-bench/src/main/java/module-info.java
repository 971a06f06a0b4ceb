/**
 * bench/run's runner: jrdma perf beside plain Java NIO programs, each side its own process.
 */
module org.jrdma.bench {
    // MachineInfo and AllocCounter read the JVM's MXBeans (com.sun.management for allocation)
    requires jdk.management;
}
