package org.jrdma.ibv.ffi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of src/test/c's layout programs, compiled with gcc against the installed header and run:
 * what it printed, {@code struct NAME SIZE} and {@code field STRUCT PATH OFFSET SIZE} lines.
 * Assumptions (a skip naming what to install) when gcc or the header is missing.
 *
 * @param sizes  struct name → its C size
 * @param fields "struct member.path" → {offset, size}
 */
record CLayoutProgram(Map<String, Long> sizes, Map<String, long[]> fields) {
    static CLayoutProgram compileAndRun(String program, Path header, String debianPackage, String what)
            throws IOException, InterruptedException {
        assumeTrue(Files.isReadable(header), () -> header + " is missing: install " + debianPackage
                + " (apt-get install -y " + debianPackage + ") to check the " + what + " layouts");
        assumeTrue(onPath("gcc"), "gcc is not on PATH: install gcc to check the " + what + " layouts");
        Path src = Path.of(System.getProperty("jrdma.native.csrc", "src/test/c")).resolve(program + ".c");
        Path out = Path.of(System.getProperty("jrdma.native.build", "target")).resolve(program);
        Files.createDirectories(out.getParent());
        run(List.of("gcc", "-Wall", "-Werror", "-o", out.toString(), src.toString()));
        Map<String, Long> sizes = new LinkedHashMap<>();
        Map<String, long[]> fields = new LinkedHashMap<>();
        for (String line : run(List.of(out.toString())).split("\n")) {
            String[] f = line.trim().split(" ");
            switch (f[0]) {
                case "struct" -> sizes.put(f[1], Long.parseLong(f[2]));
                case "field" -> fields.put(f[1] + " " + f[2], new long[] {Long.parseLong(f[3]), Long.parseLong(f[4])});
                default -> throw new IllegalStateException(program + " printed an unknown line: " + line);
            }
        }
        return new CLayoutProgram(sizes, fields);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(p.exitValue()).as("exit status of %s; output:%n%s", command, output).isZero();
        return output;
    }
}
