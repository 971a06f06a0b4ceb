package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jrdma demo --bootstrap cm} opens no TCP socket at all. The proof: the demo runs in a
 * JVM that logs every class it initializes, and none of the JDK's TCP socket implementations —
 * {@code sun.nio.ch.SocketChannelImpl} and {@code ServerSocketChannelImpl} (NIO channels),
 * {@code sun.nio.ch.NioSocketImpl} (java.net.Socket and ServerSocket) and the asynchronous
 * channels — is ever initialized, which the first instance of each would do. (Loading is not
 * enough evidence: verifying {@code sun.nio.ch.Streams}, used for files, loads
 * SocketChannelImpl without making one.) The same probe on {@code --bootstrap tcp} must see
 * them, so the probe itself is shown to work.
 */
class DemoCmNoTcpTest {
    private static final List<String> TCP_CLASSES = List.of("sun/nio/ch/SocketChannelImpl", "sun/nio/ch/ServerSocketChannelImpl",
            "sun/nio/ch/NioSocketImpl", "sun/nio/ch/UnixAsynchronousSocketChannelImpl",
            "sun/nio/ch/UnixAsynchronousServerSocketChannelImpl");

    @TempDir
    Path dir;

    private record Run(int code, String out, String initialized) {
    }

    private Run demo(String bootstrap) throws Exception {
        String spec = FreeLoopback.deviceSpec("cmdemo");
        Path log = dir.resolve(bootstrap + "-classes.log");
        Process p = JrdmaProcess.start(List.of("-Xlog:class+init=info:file=" + log),
                Map.of("JRDMA_SOFT_DEVICES", spec, "JRDMA_STATS_DIR", dir.toString()),
                List.of("demo", "--bootstrap", bootstrap, "-d", spec.substring(0, spec.indexOf('=')), "-n", "50", "-s", "2048"));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), out, Files.readString(log));
    }

    private static List<String> tcpClassesIn(String initialized) {
        return TCP_CLASSES.stream().filter(c -> initialized.contains("Initializing '" + c + "'")).toList();
    }

    @Test
    void theCmDemoLoadsNoTcpSocketClass() throws Exception {
        Run cm = demo("cm");
        assertThat(cm.code()).as(cm.out()).isZero();
        assertThat(cm.out()).contains("[1] CM address and route resolved", "REQ → REP → RTU as MADs on QP1", "[2] exchange",
                "[3] no channel to close", "[4] QP RESET→INIT→RTR→RTS", "[5] data by RDMA SEND/RECV",
                "100 messages verified byte for byte; out-of-band channel: none");
        assertThat(cm.initialized()).as("the class-init log works").contains("Initializing 'org/jrdma/cm/CmId'");
        assertThat(tcpClassesIn(cm.initialized())).as("TCP socket classes initialized in cm mode").isEmpty();
    }

    @Test
    void theProbeSeesTheTcpBootstrapsSockets() throws Exception {
        Run tcp = demo("tcp");
        assertThat(tcp.code()).as(tcp.out()).isZero();
        assertThat(tcpClassesIn(tcp.initialized())).isNotEmpty();
    }
}
