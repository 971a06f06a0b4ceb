package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tools register their memory as the native provider will demand — tied to the arena that
 * owns it — shown on devices that refuse the two-argument form ({@link StrictRegistrationProvider}):
 * demo (RcEndpoint; with the CM, its GSI port too), perf over TCP (PerfBuffer) and with -R (CmPipe),
 * rping (RpingConnection).
 */
// its provider comes from META-INF/services in the test classes, which a named module ignores
@Tag("class-path")
class StrictRegistrationToolsTest {
    /** A fresh pair of names per test: the connection manager remembers a device's address by its name. */
    private static final java.util.concurrent.atomic.AtomicInteger SEQ = new java.util.concurrent.atomic.AtomicInteger();
    private String a;
    private String b;
    private String addressA;

    @BeforeEach
    void strictDevices() throws Exception {
        int n = SEQ.incrementAndGet();
        String specA = FreeLoopback.deviceSpec("stricta" + n);
        String specB = FreeLoopback.deviceSpec("strictb" + n);
        a = specA.substring(0, specA.indexOf('='));
        b = specB.substring(0, specB.indexOf('='));
        addressA = specA.substring(specA.indexOf('=') + 1);
        System.setProperty(StrictRegistrationProvider.PROPERTY, specA + "," + specB);
        assumeTrue(ProviderChoice.fromEnvironment().choose().nativeNotInUse() != null,
                "auto offers the native provider's devices here, and not the strict ones");
    }

    @AfterEach
    void forgetThem() {
        System.clearProperty(StrictRegistrationProvider.PROPERTY);
    }

    @Test
    void theStrictDevicesRefuseTheTwoArgumentForm() {
        try (Context ctx = Verbs.device(a).open(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            assertThatThrownBy(() -> pd.registerMemory(arena.allocate(64), AccessFlags.LOCAL_WRITE))
                    .hasMessageContaining(StrictRegistrationProvider.REFUSAL);
            pd.registerMemory(arena.allocate(64), AccessFlags.LOCAL_WRITE, arena).close();
            pd.close();
        }
    }

    @Test
    void demo() {
        ToolRun tcp = ToolRun.of("demo", "-d", a, "-n", "20");
        assertThat(tcp.code()).as(tcp.toString()).isZero();
        ToolRun cm = ToolRun.of("demo", "-d", a, "-n", "20", "--bootstrap", "cm");
        assertThat(cm.code()).as(cm.toString()).isZero();
    }

    @Test
    void perfOverTcpAndOverTheConnectionManager() throws Exception {
        for (List<String> mode : List.<List<String>>of(List.of(), List.of("-R"))) {
            String port = Integer.toString(FreeLoopback.tcpPort());
            List<String> common = new java.util.ArrayList<>(List.of("perf", "write_bw", "-n", "50", "-p", port, "--timeout-ms", "30000"));
            common.addAll(mode);
            List<String> server = new java.util.ArrayList<>(common);
            server.addAll(List.of("-d", a));
            List<String> client = new java.util.ArrayList<>(common);
            client.addAll(List.of("-d", b, addressA));
            ToolRun[] r = ToolRun.serverAndClient(server, client, 60);
            assertThat(r[0].code()).as(mode + " server " + r[0]).isZero();
            assertThat(r[1].code()).as(mode + " client " + r[1]).isZero();
        }
    }

    @Test
    void rping() throws Exception {
        String port = Integer.toString(FreeLoopback.tcpPort());
        CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of("rping", "-s", "-a", addressA, "-p", port));
        List<String> client = List.of("rping", "-c", "-a", addressA, "-p", port, "-C", "3", "-V");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        ToolRun c = ToolRun.of(client);
        while (c.code() != 0 && c.err().contains("REJECTED") && System.nanoTime() < deadline) { // the server may not listen yet
            c = ToolRun.of(client);
        }
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(c.code()).as(c + "\nserver: " + s).isZero();
        assertThat(s.code()).as(s.toString()).isZero();
    }
}
