package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --psk-file} of {@code jrdma demo} and {@code jrdma pingpong} (AUTH-01, OOB-11): a key
 * both sides hold connects them; a key others may read is refused before anything starts, as
 * ssh refuses an unprotected private key; a wrong key fails both sides clearly.
 */
class PskToolsTest {
    @TempDir
    Path dir;
    private String device;

    @BeforeEach
    void ownDevice() throws Exception {
        String spec = FreeLoopback.deviceSpec("psk");
        device = spec.substring(0, spec.indexOf('='));
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
    }

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    private Path key(String name, long seed, String mode) throws Exception {
        byte[] k = new byte[32];
        new SplittableRandom(seed).nextBytes(k);
        Path p = dir.resolve(name);
        Files.write(p, (java.util.HexFormat.of().formatHex(k) + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    private ToolRun[] pingpong(Path serverKey, Path clientKey, String... flags) throws Exception {
        int port = FreeLoopback.tcpPort();
        List<String> common = new ArrayList<>(List.of("pingpong", "-d", device, "-p", String.valueOf(port), "--timeout-ms", "20000"));
        common.addAll(List.of(flags));
        List<String> server = new ArrayList<>(common);
        server.addAll(List.of("--psk-file", serverKey.toString()));
        List<String> client = new ArrayList<>(common);
        client.addAll(List.of("--psk-file", clientKey.toString(), "127.0.0.1"));
        return ToolRun.serverAndClient(server, client, 60);
    }

    @Test
    void pingpongWithTheSameKeyOnBothSidesRuns() throws Exception {
        Path k = key("k", 1, "rw-------");
        for (String transport : List.of("rc", "uc")) {
            for (ToolRun side : pingpong(k, k, "--transport", transport, "-n", "30", "-s", "512", "-c")) {
                assertThat(side.code()).as(transport + ": " + side.out() + side.err()).isZero();
                assertThat(side.out()).contains("30 iters in", "30 messages verified");
            }
        }
    }

    @Test
    void pingpongWithADifferentKeyFailsOnBothSides() throws Exception {
        ToolRun[] r = pingpong(key("a", 1, "rw-------"), key("b", 2, "rw-------"), "-n", "5");
        for (ToolRun side : r) {
            assertThat(side.code()).as(side.err()).isEqualTo(ExitCodes.FAILURE);
            assertThat(side.err()).contains("different pre-shared key");
        }
    }

    /** AUTH-02 both ways: the plain side says the peer speaks jrdma-psk (it said "'J' at offset 0 is not a hex digit"). */
    @Test
    void aPlainPingpongFacingAKeyedOneSaysSoOnBothSides() throws Exception {
        Path k = key("k", 1, "rw-------");
        for (boolean keyedServer : new boolean[] {true, false}) {
            int port = FreeLoopback.tcpPort();
            List<String> common = List.of("pingpong", "-d", device, "-p", String.valueOf(port), "--timeout-ms", "20000", "-n", "5");
            List<String> server = new ArrayList<>(common);
            List<String> client = new ArrayList<>(common);
            (keyedServer ? server : client).addAll(List.of("--psk-file", k.toString()));
            client.add("127.0.0.1");
            ToolRun[] r = ToolRun.serverAndClient(server, client, 60);
            ToolRun plain = keyedServer ? r[1] : r[0];
            ToolRun keyed = keyedServer ? r[0] : r[1];
            assertThat(plain.code()).as(plain.toString()).isEqualTo(ExitCodes.FAILURE);
            assertThat(plain.err()).as(plain.toString()).contains("malformed protocol: the peer speaks jrdma-psk (it runs with"
                    + " --psk-file), this side the plain exchange: both must use the same mode");
            assertThat(keyed.code()).as(keyed.toString()).isEqualTo(ExitCodes.FAILURE);
        }
    }

    @Test
    void aKeyFileOthersMayReadIsRefusedBeforeAnythingStarts() throws Exception {
        for (String mode : List.of("rw-r--r--", "rw-rw----", "rw----r--")) {
            Path k = key("open-" + mode, 3, mode);
            for (List<String> args : List.of(
                    List.of("pingpong", "-d", device, "--psk-file", k.toString(), "127.0.0.1"),
                    List.of("demo", "-d", device, "--psk-file", k.toString()))) {
                ToolRun r = ToolRun.of(args);
                assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.FAILURE);
                assertThat(r.err()).contains("key file " + k, "chmod 600").doesNotContain(Files.readString(k).strip());
            }
        }
    }

    @Test
    void demoOverAPreSharedKeyRunsAndSaysSo() throws Exception {
        ToolRun r = ToolRun.of(List.of("demo", "-d", device, "--psk-file", key("k", 4, "r--------").toString(), "-n", "20", "-s", "1000"));
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("pre-shared key");
    }

    @Test
    void pskIsForTheTcpBootstrapOnly() throws Exception {
        ToolRun r = ToolRun.of(List.of("demo", "-d", device, "--bootstrap", "file", "--psk-file", key("k", 5, "rw-------").toString()));
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--psk-file");
    }
}
