package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layout the main sources keep (package-info.java of org.jrdma.soft, issue 14):
 * the root package holds only the verbs objects and the device's configuration — an explicit
 * list, so a new class there is a decision — and no class in a sub-package uses a root class,
 * so the dependencies run one way. Reads the sources from the module directory (Maven's
 * working directory for tests).
 */
class PackageLayoutTest {
    private static final Path ROOT = Path.of("src/main/java/org/jrdma/soft");

    /** The verbs objects and the configuration, by file. */
    private static final Set<String> ROOT_CLASSES = Set.of(
            // verbs objects (they implement jrdma-verbs interfaces) and what they report
            "SoftProvider.java", "SoftDevice.java", "SoftContext.java", "SoftQueryContext.java", "SoftPd.java",
            "SoftMr.java", "SoftMw.java", "SoftCq.java", "SoftQp.java", "SoftSrq.java", "SoftAh.java",
            "SoftCompChannel.java", "SoftAsyncEvent.java", "SoftAttributes.java",
            "QpBean.java", // a SoftQp's MXBean: reads the QP under its monitor, as SoftQp's own query does
            // configuration: what a user gives a device, and what it advertises
            "SoftOptions.java", "SoftDeviceSpec.java", "SoftDeviceDiscovery.java", "IdleMode.java", "SoftLimits.java",
            "package-info.java");

    // org.jrdma.soft.SomeClass or org.jrdma.soft.*, but not org.jrdma.soft.engine.SomeClass (a package starts lower case).
    private static final Pattern ROOT_REFERENCE = Pattern.compile("\\borg\\.jrdma\\.soft\\.([A-Z]\\w*|\\*)");
    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);

    @Test
    void theRootPackageHoldsOnlyVerbsObjectsAndConfiguration() throws IOException {
        assertThat(Files.isDirectory(ROOT)).as("run from the module directory: %s", ROOT.toAbsolutePath()).isTrue();
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.list(ROOT)) {
            files.filter(Files::isRegularFile).forEach(f -> found.add(f.getFileName().toString()));
        }
        assertThat(found).as("classes in org.jrdma.soft that are neither verbs objects nor configuration:"
                + " move them to a sub-package, or add them to ROOT_CLASSES saying why").isSubsetOf(ROOT_CLASSES);
        assertThat(ROOT_CLASSES).as("ROOT_CLASSES names a file that is gone").isSubsetOf(found);
    }

    @Test
    void noSubPackageUsesTheRootPackage() throws IOException {
        List<String> uses = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(ROOT)) {
            sources = files.filter(f -> f.toString().endsWith(".java") && !f.getParent().equals(ROOT)).toList();
        }
        assertThat(sources).as("sub-package sources under %s", ROOT).isNotEmpty();
        for (Path file : sources) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            // Code only: a comment may name a root class (where a value comes from).
            Matcher m = ROOT_REFERENCE.matcher(COMMENT.matcher(text).replaceAll(""));
            while (m.find()) {
                uses.add(ROOT.relativize(file) + " uses org.jrdma.soft." + m.group(1));
            }
        }
        assertThat(uses).as("sub-packages must not use the root package (it depends on them)").isEmpty();
    }
}
