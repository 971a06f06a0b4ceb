package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jrdma.verbs.spi.Provider;
import org.junit.jupiter.api.Test;

/**
 * The tools run as modules, and each jrdma module exports what README's module table says: the
 * providers export no package to applications (soft opens its device classes to the tools
 * alone), and both are found through their {@code provides}.
 */
class ModuleDescriptorsTest {
    private static ModuleDescriptor descriptor(String name) {
        return ModuleLayer.boot().findModule(name).orElseThrow(() -> new AssertionError(name + " is not on the module path"))
                .getDescriptor();
    }

    private static Map<String, Set<String>> exports(String module) {
        Map<String, Set<String>> out = new TreeMap<>();
        for (Exports e : descriptor(module).exports()) {
            out.put(e.source(), e.isQualified() ? e.targets() : Set.of("*"));
        }
        return out;
    }

    @Test
    void theToolsRunOnTheModulePath() {
        assertThat(Main.class.getModule().getName()).isEqualTo("org.jrdma.tools");
        assertThat(descriptor("org.jrdma.tools").requires().stream().map(ModuleDescriptor.Requires::name)
                .collect(Collectors.toSet())).contains("org.jrdma.verbs", "org.jrdma.soft", "org.jrdma.ibv", "org.jrdma.shm",
                        "info.picocli");
    }

    @Test
    void theSoftProviderExportsNothingButToTheTools() {
        assertThat(exports("org.jrdma.soft")).isEqualTo(Map.of(
                "org.jrdma.soft", Set.of("org.jrdma.tools"),
                "org.jrdma.soft.net", Set.of("org.jrdma.tools")));
        assertThat(descriptor("org.jrdma.soft").provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(Provider.class.getName());
            assertThat(p.providers()).containsExactly("org.jrdma.soft.SoftProvider");
        });
        assertThat(descriptor("org.jrdma.soft").requires().stream().map(ModuleDescriptor.Requires::name))
                .contains("jdk.net");
    }

    @Test
    void theNativeProviderExportsItsPublicPackageOnly() {
        assertThat(exports("org.jrdma.ibv")).isEqualTo(Map.of("org.jrdma.ibv", Set.of("*")));
        assertThat(descriptor("org.jrdma.ibv").provides().stream().map(ModuleDescriptor.Provides::service))
                .containsExactlyInAnyOrder(Provider.class.getName(), "org.jrdma.cm.spi.CmBackend");
    }

    @Test
    void theShmProviderExportsNothing() {
        assertThat(exports("org.jrdma.shm")).isEmpty();
        assertThat(descriptor("org.jrdma.shm").provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(Provider.class.getName());
            assertThat(p.providers()).containsExactly("org.jrdma.shm.ShmProvider");
        });
    }

    @Test
    void theApiModulesExportTheirApi() {
        assertThat(exports("org.jrdma.verbs").keySet()).containsExactly("org.jrdma.verbs", "org.jrdma.verbs.jfr",
                "org.jrdma.verbs.jmx", "org.jrdma.verbs.spi"); // the JFR events and the MXBean interfaces (README, Observability)
        assertThat(exports("org.jrdma.cm").keySet()).containsExactly("org.jrdma.cm", "org.jrdma.cm.spi", "org.jrdma.cm.wire");
        assertThat(exports("org.jrdma.bootstrap").keySet()).containsExactly("org.jrdma.bootstrap",
                "org.jrdma.bootstrap.file", "org.jrdma.bootstrap.fixed", "org.jrdma.bootstrap.rendezvous",
                "org.jrdma.bootstrap.tcp");
        assertThat(exports("org.jrdma.tools")).isEmpty();
    }

    @Test
    void theProvidersAreFoundAsModules() {
        ModuleDescriptorsTest.class.getModule().addUses(Provider.class); // the tools use verbs' lookup, not their own
        assertThat(java.util.ServiceLoader.load(Provider.class).stream()
                .map(p -> p.type().getModule().getName())).contains("org.jrdma.soft", "org.jrdma.ibv", "org.jrdma.shm");
    }
}
