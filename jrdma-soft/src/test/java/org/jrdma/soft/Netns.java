package org.jrdma.soft;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jrdma.testkit.ChildJvm;
import org.jrdma.verbs.Context;

/** What the network-namespace tests share: finding tools, running a command, a child JVM's RESULT line. */
final class Netns {
    private Netns() {
    }

    record Run(int code, String output) {
    }

    /** The tool's path on PATH or in the sbin directories, or null. */
    static String tool(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String dir : dirs) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        return null;
    }

    /** Runs a command to its end (10 s at most) with its output. */
    static Run run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Run(-1, String.join(" ", command) + ": timed out");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /**
     * Runs a child (a {@link #trafficJvm} behind {@code ip netns exec}) with its output in
     * {@code output}, killed after {@code seconds}: its exit code (-1 if it had to be killed)
     * and its output.
     */
    static Run runChild(List<String> command, Path output, int seconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        int code = -1;
        if (p.waitFor(seconds, TimeUnit.SECONDS)) {
            code = p.exitValue();
        } else {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        return new Run(code, Files.readString(output));
    }

    /** The java command of a child JVM that runs {@link NetnsTraffic} with this module's classes. */
    static List<String> trafficJvm(String... jvmOptions) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.add("--enable-native-access=ALL-UNNAMED");
        c.addAll(List.of(jvmOptions));
        c.addAll(List.of("-cp", ChildJvm.codeSources(NetnsTraffic.class, SoftDevice.class, Context.class),
                NetnsTraffic.class.getName()));
        return c;
    }

    /** The child's {@code RESULT key=value …} line as a map (empty when it printed none). */
    static Map<String, String> result(String out) {
        Map<String, String> r = new HashMap<>();
        out.lines().filter(l -> l.startsWith("RESULT ")).findFirst().ifPresent(line -> {
            for (String kv : line.substring(7).split(" ")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    r.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        });
        return r;
    }
}
