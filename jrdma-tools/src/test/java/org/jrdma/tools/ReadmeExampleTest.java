package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.tcp.TcpExchange;
import org.jrdma.bootstrap.tcp.TcpOptions;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's "seed's program, in Java" is {@link #seed} below, character for character (the
 * first test compares the two), and it runs in both roles: one call as the server, one as the
 * client, each in its own thread.
 */
class ReadmeExampleTest {
    private static final String BEGIN = "    // ---- README: the seed's program ----";
    private static final String END = "    // ---- end of the README's program ----";

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    // ---- README: the seed's program ----
    /** Server: seed(null, 18515). Client: seed("server-host", 18515). Returns the one completion. */
    static WorkCompletion seed(String serverHost, int port) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {   // ibv_open_device
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(128, null);
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096), AccessFlags.LOCAL_WRITE, arena);

            // create QP → TCP exchange of LID/QPN/PSN/GID → socket closed → INIT → RTR → RTS
            Exchange tcp = serverHost == null ? TcpExchange.server(port, TcpOptions.rcPingpong())
                    : TcpExchange.client(serverHost, port, TcpOptions.rcPingpong());
            RcOptions options = RcOptions.defaults(cq)        // receives go in at INIT, before the peer can send
                    .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(mr))));
            try (RcConnection c = RcConnector.connect(pd, tcp, options)) {
                if (serverHost != null) {                     // the client sends 4096 bytes: RDMA from here on
                    c.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND)
                            .flags(SendFlags.SIGNALED).sg(Sge.of(mr)));
                }
                WorkCompletion[] wc = {new WorkCompletion()};  // client: its SEND, acknowledged; server: the RECV
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (cq.poll(wc) == 0) {
                    if (System.nanoTime() > deadline) throw new IllegalStateException("no completion within 10 s");
                    Thread.onSpinWait();
                }
                if (wc[0].status != WcStatus.SUCCESS) throw new IllegalStateException(wc[0].status.str());
                return wc[0];
            }
        }
    }
    // ---- end of the README's program ----

    @Test
    void theReadmeQuotesThisProgramVerbatim() throws Exception {
        List<String> source = Files.readAllLines(Path.of("src/test/java/org/jrdma/tools/ReadmeExampleTest.java"));
        List<String> program = source.subList(source.indexOf(BEGIN) + 1, source.indexOf(END)).stream()
                .map(line -> line.startsWith("    ") ? line.substring(4) : line).toList();
        String readme = Files.readString(readme(), StandardCharsets.UTF_8);
        int section = readme.indexOf("## The seed's program, in Java");
        int from = readme.indexOf("```java\n", section) + "```java\n".length();
        List<String> quoted = readme.substring(from, readme.indexOf("```", from)).lines().toList();
        assertThat(quoted).isEqualTo(program);
    }

    @Test
    void theReadmeProgramRunsAsServerAndAsClient() throws Exception {
        System.setProperty(SoftDeviceDiscovery.PROPERTY, FreeLoopback.deviceSpec("readme"));
        int port = FreeLoopback.tcpPort();
        CompletableFuture<WorkCompletion> server = CompletableFuture.supplyAsync(() -> seed(null, port));
        WorkCompletion client = seed("127.0.0.1", port); // the client retries a refused connect until the server listens
        WorkCompletion received = server.get(30, TimeUnit.SECONDS);
        assertThat(client.opcode).isEqualTo(WcOpcode.SEND);
        assertThat(received.opcode).isEqualTo(WcOpcode.RECV);
        assertThat(received.byteLen).isEqualTo(4096);
    }

    /** The repository's README.md: tests run in the module's directory. */
    private static Path readme() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.exists(here.resolve("README.md").resolveSibling("mvnw"))) {
            here = here.getParent();
        }
        assertThat(here).as("the repository root (README.md beside mvnw)").isNotNull();
        return here.resolve("README.md");
    }
}
