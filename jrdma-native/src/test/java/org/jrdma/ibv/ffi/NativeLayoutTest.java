package org.jrdma.ibv.ffi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Layouts proven, not assumed: compiles {@code src/test/c/ibv_layouts.c} with gcc against the
 * installed {@code <infiniband/verbs.h>} (Debian: libibverbs-dev), runs it, and compares every
 * sizeof/offsetof it prints with {@link IbvLayouts}. A mismatch fails naming the struct and field.
 * Without gcc or the headers the test is skipped, saying which one is missing — never passed.
 */
class NativeLayoutTest {
    private static final Path HEADER = Path.of("/usr/include/infiniband/verbs.h");
    /** struct name → its C size (for structs C printed a size of). */
    private static final Map<String, Long> C_SIZES = new LinkedHashMap<>();
    /** "struct member.path" → {offset, size}. */
    private static final Map<String, long[]> C_FIELDS = new LinkedHashMap<>();

    @BeforeAll
    static void compileAndRun() throws IOException, InterruptedException {
        assumeTrue(Files.isReadable(HEADER), () -> HEADER + " is missing: install libibverbs-dev"
                + " (apt-get install -y libibverbs-dev) to check the native layouts");
        assumeTrue(onPath("gcc"), "gcc is not on PATH: install gcc to check the native layouts");
        Path src = Path.of(System.getProperty("jrdma.native.csrc", "src/test/c")).resolve("ibv_layouts.c");
        Path out = Path.of(System.getProperty("jrdma.native.build", "target")).resolve("ibv_layouts");
        Files.createDirectories(out.getParent());
        run(List.of("gcc", "-Wall", "-Werror", "-o", out.toString(), src.toString()));
        for (String line : run(List.of(out.toString())).split("\n")) {
            String[] f = line.trim().split(" ");
            switch (f[0]) {
                case "struct" -> C_SIZES.put(f[1], Long.parseLong(f[2]));
                case "field" -> C_FIELDS.put(f[1] + " " + f[2], new long[] {Long.parseLong(f[3]), Long.parseLong(f[4])});
                default -> throw new IllegalStateException("ibv_layouts printed an unknown line: " + line);
            }
        }
        assertThat(C_FIELDS).as("fields printed by ibv_layouts").hasSizeGreaterThan(150);
    }

    @Test
    void everyFieldTheCProgramPrintsHasTheSameOffsetAndSizeInJava() {
        List<String> wrong = new ArrayList<>();
        C_FIELDS.forEach((key, c) -> {
            String struct = key.substring(0, key.indexOf(' '));
            String path = key.substring(key.indexOf(' ') + 1);
            StructLayout layout = layout(struct);
            if (layout == null) {
                wrong.add("struct " + struct + ": no Java layout");
                return;
            }
            try {
                long off = IbvLayouts.offset(layout, path);
                long size = IbvLayouts.size(layout, path);
                if (off != c[0] || size != c[1]) {
                    wrong.add(struct + "." + path + ": C offset " + c[0] + " size " + c[1] + ", Java offset " + off
                            + " size " + size);
                }
            } catch (IllegalArgumentException e) {
                wrong.add(struct + "." + path + ": not in the Java layout (" + e.getMessage() + ")");
            }
        });
        assertThat(wrong).as("layout mismatches against %s", HEADER).isEmpty();
    }

    @Test
    void everyStructJrdmaAllocatesOrMeasuresHasTheCSize() {
        List<String> wrong = new ArrayList<>();
        for (StructLayout layout : IbvLayouts.ALLOCATED) {
            String name = layout.name().orElseThrow();
            Long c = C_SIZES.get(name);
            if (c == null) {
                wrong.add("struct " + name + ": ibv_layouts.c prints no sizeof");
            } else if (c != layout.byteSize()) {
                wrong.add("struct " + name + ": sizeof in C " + c + ", Java " + layout.byteSize());
            }
        }
        C_SIZES.forEach((name, c) -> {
            StructLayout layout = layout(name);
            if (layout == null || layout.byteSize() != c) {
                wrong.add("struct " + name + ": sizeof in C " + c + ", Java " + (layout == null ? "no layout" : layout.byteSize()));
            }
        });
        assertThat(wrong).as("struct sizes against %s", HEADER).isEmpty();
    }

    /** The reverse direction: no Java field goes unchecked (a typo'd name would otherwise hide). */
    @Test
    void everyNamedJavaFieldIsCheckedByTheCProgram() {
        List<String> unchecked = new ArrayList<>();
        for (StructLayout layout : IbvLayouts.ALL) {
            String struct = layout.name().orElseThrow();
            for (String path : paths(layout, "")) {
                boolean covered = C_FIELDS.keySet().stream().anyMatch(k -> k.equals(struct + " " + path)
                        || k.startsWith(struct + " " + path + "."));
                if (!covered) {
                    unchecked.add(struct + "." + path);
                }
            }
        }
        assertThat(unchecked).as("Java fields that ibv_layouts.c does not print").isEmpty();
    }

    /** The C member paths of a layout's top-level fields (anonymous unions flattened, as in C). */
    private static List<String> paths(GroupLayout group, String prefix) {
        List<String> out = new ArrayList<>();
        for (MemoryLayout m : group.memberLayouts()) {
            if (m instanceof PaddingLayout || m.name().isEmpty()) {
                continue;
            }
            String name = m.name().orElseThrow();
            if (name.startsWith(IbvLayouts.ANONYMOUS) && m instanceof GroupLayout anonymous) {
                out.addAll(paths(anonymous, prefix));
            } else {
                out.add(prefix + name);
            }
        }
        return out;
    }

    private static StructLayout layout(String name) {
        return IbvLayouts.ALL.stream().filter(l -> l.name().orElseThrow().equals(name)).findFirst().orElse(null);
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
