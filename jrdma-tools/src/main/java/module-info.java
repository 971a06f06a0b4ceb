/**
 * The {@code jrdma} command line: demo, devices, devinfo, pingpong, perf, rping, chaos, mesh. Picocli
 * fills the commands' fields reflectively, so their packages are opened to it. Both providers
 * are required so that the tools jar runs on a NIC and without one.
 */
module org.jrdma.tools {
    requires org.jrdma.verbs;
    requires org.jrdma.bootstrap;
    requires org.jrdma.cm;
    requires org.jrdma.soft;
    requires org.jrdma.ibv;
    // no class of shm is used here: required so that the module path and a jlink image of the
    // tools hold the shm provider (--provider shm) as they hold soft and native
    requires org.jrdma.shm;
    requires info.picocli;
    // perf --report-alloc reads com.sun.management.ThreadMXBean's per-thread allocation
    requires jdk.management;

    opens org.jrdma.tools to info.picocli;
    opens org.jrdma.tools.chaos to info.picocli;
    opens org.jrdma.tools.demo to info.picocli;
    opens org.jrdma.tools.mesh to info.picocli;
    opens org.jrdma.tools.options to info.picocli;
    opens org.jrdma.tools.perf to info.picocli;
    opens org.jrdma.tools.pingpong to info.picocli;
    opens org.jrdma.tools.rc to info.picocli;
    opens org.jrdma.tools.rping to info.picocli;
}
