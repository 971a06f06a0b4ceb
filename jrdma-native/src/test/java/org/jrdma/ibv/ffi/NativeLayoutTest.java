package org.jrdma.ibv.ffi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        CLayoutProgram c = CLayoutProgram.compileAndRun("ibv_layouts", HEADER, "libibverbs-dev", "native");
        C_SIZES.putAll(c.sizes());
        C_FIELDS.putAll(c.fields());
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
}
