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
 * The librdmacm layouts proven against the installed {@code <rdma/rdma_cma.h>}: compiles
 * {@code src/test/c/rdma_cm_layouts.c} with gcc, runs it, and compares every sizeof/offsetof it
 * prints with {@link RdmaCmLayouts}, both ways; a mismatch fails naming struct and field. Skipped,
 * saying what to install, without gcc or librdmacm-dev.
 */
class RdmaCmLayoutTest {
    private static final Path HEADER = Path.of("/usr/include/rdma/rdma_cma.h");
    private static final Map<String, Long> C_SIZES = new LinkedHashMap<>();
    private static final Map<String, long[]> C_FIELDS = new LinkedHashMap<>();

    @BeforeAll
    static void compileAndRun() throws IOException, InterruptedException {
        CLayoutProgram c = CLayoutProgram.compileAndRun("rdma_cm_layouts", HEADER, "librdmacm-dev", "librdmacm");
        C_SIZES.putAll(c.sizes());
        C_FIELDS.putAll(c.fields());
        assertThat(C_FIELDS).as("fields printed by rdma_cm_layouts").hasSizeGreaterThan(40);
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
                long off = RdmaCmLayouts.offset(layout, path);
                long size = RdmaCmLayouts.size(layout, path);
                if (off != c[0] || size != c[1]) {
                    wrong.add(struct + "." + path + ": C offset " + c[0] + " size " + c[1] + ", Java offset " + off + " size " + size);
                }
            } catch (IllegalArgumentException e) {
                wrong.add(struct + "." + path + ": not in the Java layout (" + e.getMessage() + ")");
            }
        });
        assertThat(wrong).as("layout mismatches against %s", HEADER).isEmpty();
    }

    @Test
    void everyStructHasTheCSize() {
        List<String> wrong = new ArrayList<>();
        for (StructLayout layout : RdmaCmLayouts.ALL) {
            String name = layout.name().orElseThrow();
            Long c = C_SIZES.get(name);
            if (c == null || c != layout.byteSize()) {
                wrong.add("struct " + name + ": sizeof in C " + c + ", Java " + layout.byteSize());
            }
        }
        assertThat(wrong).as("struct sizes against %s", HEADER).isEmpty();
    }

    /** No Java field goes unchecked: a typo'd or moved name fails here instead of hiding. */
    @Test
    void everyNamedJavaFieldIsCheckedByTheCProgram() {
        List<String> unchecked = new ArrayList<>();
        for (StructLayout layout : RdmaCmLayouts.ALL) {
            String struct = layout.name().orElseThrow();
            for (String path : paths(layout, "")) {
                boolean covered = C_FIELDS.keySet().stream().anyMatch(k -> k.equals(struct + " " + path)
                        || k.startsWith(struct + " " + path + ".") || path.startsWith(k.substring(k.indexOf(' ') + 1) + ".")
                        && k.startsWith(struct + " "));
                if (!covered) {
                    unchecked.add(struct + "." + path);
                }
            }
        }
        assertThat(unchecked).as("Java fields that rdma_cm_layouts.c does not print").isEmpty();
    }

    /** Leaf member paths, down through nested structs and unions (route.addr.src_storage). */
    private static List<String> paths(GroupLayout group, String prefix) {
        List<String> out = new ArrayList<>();
        for (MemoryLayout m : group.memberLayouts()) {
            if (m instanceof PaddingLayout || m.name().isEmpty()) {
                continue;
            }
            String name = prefix + m.name().orElseThrow();
            if (m instanceof GroupLayout g && !g.name().orElse("").startsWith("ibv_")) {
                out.addAll(paths(g, name + "."));
            } else {
                out.add(name);
            }
        }
        return out;
    }

    private static StructLayout layout(String name) {
        return RdmaCmLayouts.ALL.stream().filter(l -> l.name().orElseThrow().equals(name)).findFirst().orElse(null);
    }
}
