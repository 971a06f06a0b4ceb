package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.spi.Provider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code --provider auto|soft|native|shm} on every tool, and what {@code devices} and {@code devinfo}
 * say about it, on a machine without an RDMA device: auto is soft, and native fails — naming the
 * missing provider while jrdma-native is not on this class path, else with its own cause.
 */
// its provider comes from META-INF/services in the test classes, which a named module ignores
@Tag("class-path")
class ProviderOptionTest {
    private static final String MISSING = "no provider named native on the class path";
    /** The native provider on this class path, or null. */
    private static final Provider NATIVE = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
            .filter(p -> p.name().equals(ProviderChoice.NATIVE)).findFirst().orElse(null);
    /** Why native is not in use here. */
    private static final String WHY_NOT = NATIVE == null ? MISSING : NATIVE.unavailabilityCause();

    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("prov");

    @BeforeAll
    static void noRdmaDeviceHere() {
        assumeTrue(NATIVE == null || !NATIVE.isAvailable(), "the native provider has devices here: auto is not soft");
    }

    @Test
    void devicesSaysInOneLineWhyNativeIsNotInUse() {
        ToolRun auto = ToolRun.of("devices");
        assertThat(auto.code()).as(auto.toString()).isZero();
        assertThat(auto.out()).containsPattern(DEVICES.name() + "\\s+[0-9a-f]{16}\\s+soft: ");
        assertThat(auto.out().lines().filter(l -> l.startsWith("native: ")))
                .containsExactly("native: not in use: " + WHY_NOT);

        ToolRun soft = ToolRun.of("devices", "--provider", "soft");
        assertThat(soft.code()).as(soft.toString()).isZero();
        assertThat(soft.out()).contains(DEVICES.name()).endsWith("native: not in use: jrdma.provider=soft\n");
    }

    @Test
    void devinfoSaysItToWhenItListsTheDevices() {
        ToolRun list = ToolRun.of("devinfo", "-l", "--provider", "soft");
        assertThat(list.code()).as(list.toString()).isZero();
        assertThat(list.out()).contains("\t" + DEVICES.name()).endsWith("native: not in use: jrdma.provider=soft\n");
        ToolRun all = ToolRun.of("devinfo");
        assertThat(all.out()).contains("hca_id:\t" + DEVICES.name()).endsWith("native: not in use: " + WHY_NOT + "\n");
        ToolRun one = ToolRun.of("devinfo", "-d", DEVICES.name());
        assertThat(one.code()).as(one.toString()).isZero();
        assertThat(one.out()).doesNotContain("native:");
    }

    @Test
    void nativeFailsOnEveryToolNamingTheMissingProvider() throws Exception {
        String port = Integer.toString(FreeLoopback.tcpPort());
        List<List<String>> tools = List.of(List.of("devices"), List.of("devinfo"), List.of("demo", "-n", "1"),
                List.of("pingpong", "-p", port), List.of("perf", "write_bw", "-p", port),
                List.of("rping", "-s", "-a", DEVICES.address(), "-p", port));
        for (List<String> tool : tools) {
            List<String> args = new ArrayList<>(tool);
            args.addAll(List.of("--provider", "native"));
            ToolRun r = ToolRun.of(args);
            assertThat(r.code()).as(args + "\n" + r).isEqualTo(ExitCodes.FAILURE);
            assertThat(r.err()).as(args + "\n" + r).contains(WHY_NOT);
        }
        ToolRun chaos = ToolRun.of("chaos", "--provider", "native");
        assertThat(chaos.code()).as(chaos.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(chaos.err()).contains("jrdma.provider=native: chaos impairs the packets of two soft devices");
        assertThat(System.getProperty(ProviderChoice.PROPERTY)).as("--provider is for its run only").isNull();
    }

    @Test
    void everyToolHasTheOptionAndTheOptionGoesBeforeTheToolToo() {
        for (String tool : List.of("demo", "devices", "devinfo", "pingpong", "perf", "rping", "chaos")) {
            ToolRun help = ToolRun.of(tool, "--help");
            assertThat(help.out()).as(tool).contains("--provider=auto|soft|native|shm");
        }
        ToolRun before = ToolRun.of("--provider", "soft", "devices");
        assertThat(before.out()).as(before.toString()).contains("native: not in use: jrdma.provider=soft");
    }

    @Test
    void shmIsAcceptedByEveryToolAndOffersShmsDevicesOnly() {
        ToolRun shm = ToolRun.of("devices", "--provider", "shm");
        assertThat(shm.out()).as(shm.toString()).doesNotContainPattern(DEVICES.name() + "\\s+[0-9a-f]{16}").doesNotContain("soft: ")
                .endsWith("native: not in use: jrdma.provider=shm\n");
        boolean shmHasDevices = ServiceLoader.load(Provider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(ProviderChoice.SHM)).anyMatch(p -> p.isAvailable() && !p.devices().isEmpty());
        if (shmHasDevices) {
            assertThat(shm.code()).as(shm.toString()).isZero();
            assertThat(shm.out()).containsPattern("shm0\\s+[0-9a-f]{16}\\s+shm: ");
        } else { // jrdma-shm's skeleton has none yet: an empty list is devices' failure, as ever
            assertThat(shm.code()).as(shm.toString()).isEqualTo(ExitCodes.FAILURE);
        }
        for (String tool : List.of("demo", "devinfo", "pingpong", "perf", "rping", "chaos", "mesh")) {
            ToolRun help = ToolRun.of(tool, "--provider", "shm", "--help");
            assertThat(help.code()).as(tool + "\n" + help).isZero();
        }
        assertThat(System.getProperty(ProviderChoice.PROPERTY)).as("--provider is for its run only").isNull();
    }

    @Test
    void aProviderThatThrowsIsReportedAndBreaksNoOther() {
        System.setProperty(ThrowingProvider.PROPERTY, "its device list failed on purpose");
        try {
            ToolRun r = ToolRun.of("devices");
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).contains(DEVICES.name()).contains("native: not in use: " + WHY_NOT);
            assertThat(r.err()).isEqualTo("jrdma devices: provider passed over: throwing: its device list failed on purpose\n");
            ToolRun demo = ToolRun.of("demo", "-d", DEVICES.name(), "-n", "5");
            assertThat(demo.code()).as(demo.toString()).isZero();
        } finally {
            System.clearProperty(ThrowingProvider.PROPERTY);
        }
    }

    @Test
    void anUnknownProviderIsAUsageErrorNamingTheFour() {
        ToolRun r = ToolRun.of("devices", "--provider", "rxe");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("jrdma devices: Invalid value for option '--provider': unknown provider 'rxe'; use auto, soft, native or shm");
    }

    /** The environment is a child process's to set: JRDMA_PROVIDER applies, and --provider overrides it. */
    @Test
    void theOptionOverridesTheEnvironment() throws Exception {
        Map<String, String> env = new HashMap<>(Map.of("JRDMA_SOFT_DEVICES", DEVICES.spec(0), "JRDMA_PROVIDER", "native"));
        env.put("JRDMA_STATS_DIR", "off");
        String fromEnv = run(env, "devices");
        // the child's native provider may say more than ours (its JVM flags are its own): the missing one is certain
        assertThat(fromEnv).startsWith("exit 1\n").contains("jrdma devices: error: ").doesNotContain("soft: ");
        if (NATIVE == null) {
            assertThat(fromEnv).contains("jrdma devices: error: " + MISSING + " (JRDMA_PROVIDER=native;");
        }
        String overridden = run(env, "devices", "--provider", "auto");
        assertThat(overridden).startsWith("exit 0\n").contains(DEVICES.name()).contains("native: not in use: ");
    }

    private static String run(Map<String, String> env, String... args) throws Exception {
        Process p = JrdmaProcess.start(List.of(), env, List.of(args));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return "exit " + p.exitValue() + "\n" + out;
    }
}
