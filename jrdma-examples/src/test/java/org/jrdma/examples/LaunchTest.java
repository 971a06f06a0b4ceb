package org.jrdma.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The examples as README launches them: {@code java -p … -m org.jrdma.examples/…} in two
 * processes, each with a soft device of its own, found by ServiceLoader on the module path (the
 * modules this JVM runs with). The server is given port 0 and the client the port it printed.
 */
@Timeout(120)
class LaunchTest {
    private static final Pattern LISTENING = Pattern.compile("listening on (?:TCP|rdma_cm) port (\\d+)");
    private final List<Child> children = new ArrayList<>();

    @AfterEach
    void stopChildren() {
        children.forEach(c -> c.process.destroyForcibly());
    }

    @Test
    void seedRunsAsTwoProcesses() throws Exception {
        Child server = start("Seed", "server", "0");
        int port = server.port();
        Child client = start("Seed", "client", "127.0.0.1", Integer.toString(port));
        assertThat(client.finish()).contains("Seed client: sent 4096 bytes, acknowledged (SEND)");
        assertThat(server.finish()).contains("Seed server: received 4096 bytes (RECV)");
    }

    @Test
    void theConnectionManagerConnectsTwoProcesses() throws Exception {
        Child server = start("CmSendRecv", "server", "0");
        int port = server.port();
        Child client = start("CmSendRecv", "client", server.device.getHostAddress(), Integer.toString(port));
        assertThat(client.finish()).contains("CmSendRecv client: sent, and disconnected");
        assertThat(server.finish()).contains("CmSendRecv server: greeting \"hello\", message \"sent by RDMA SEND");
    }

    @Test
    void aBadCommandLineGetsTheUsageAndStatusTwo() throws Exception {
        Child noHost = start("WriteRead", "client");
        assertThat(noHost.process.waitFor(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(noHost.process.exitValue()).isEqualTo(2);
        assertThat(noHost.output()).contains("usage: WriteRead server [port]  |  WriteRead client host [port]");
        Child badPort = start("Seed", "server", "65536");
        assertThat(badPort.process.waitFor(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(badPort.process.exitValue()).isEqualTo(2);
        assertThat(badPort.output()).contains("Seed: bad port '65536' (0..65535)");
    }

    /** A child JVM running one example, its output (stdout and stderr) read line by line as it comes. */
    private final class Child {
        final Process process;
        final InetAddress device;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final StringBuilder all = new StringBuilder();
        final Thread reader;

        Child(Process process, InetAddress device) {
            this.process = process;
            this.device = device;
            reader = Thread.ofPlatform().daemon(true).name("child-output").start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }

        /** The port the server printed, waited for with a deadline. */
        int port() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Roles.DEADLINE_SECONDS);
            while (System.nanoTime() < deadline) {
                String l = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (l == null) {
                    break;
                }
                all.append(l).append('\n');
                Matcher m = LISTENING.matcher(l);
                if (m.find()) {
                    return Integer.parseInt(m.group(1));
                }
            }
            throw new AssertionError("the server printed no port; its output:\n" + all);
        }

        /** Waits for the exit, which must be 0; returns everything it printed. */
        String finish() throws Exception {
            boolean ended = process.waitFor(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS);
            String out = output();
            assertThat(ended).as("ended within %d s; output:%n%s", Roles.DEADLINE_SECONDS, out).isTrue();
            assertThat(process.exitValue()).as("exit status; output:%n%s", out).isZero();
            return out;
        }

        String output() throws InterruptedException {
            process.waitFor(Roles.DEADLINE_SECONDS, TimeUnit.SECONDS);
            reader.join(TimeUnit.SECONDS.toMillis(Roles.DEADLINE_SECONDS)); // it ends at the output's EOF
            List<String> rest = new ArrayList<>();
            lines.drainTo(rest);
            rest.forEach(l -> all.append(l).append('\n'));
            return all.toString();
        }
    }

    private Child start(String program, String... args) throws IOException {
        InetAddress device = ExampleDevice.free();
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=org.jrdma.verbs,org.jrdma.soft",
                "-Djrdma.soft.devices=example=" + device.getHostAddress(),
                "-p", System.getProperty("jdk.module.path"),
                "-m", "org.jrdma.examples/org.jrdma.examples." + program));
        cmd.addAll(List.of(args));
        Child c = new Child(new ProcessBuilder(cmd).redirectErrorStream(true).start(), device);
        children.add(c);
        return c;
    }
}
