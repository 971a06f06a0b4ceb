package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README's "Environment variables and system properties" table cannot drift: every property
 * and variable the main code of any module reads (System.getProperty, System.getenv,
 * Boolean.getBoolean, Integer.getInteger, Long.getLong — with a literal or through a
 * {@code PROPERTY}/{@code ENV}-style constant) and every variable the scripts ({@code ./jrdma},
 * {@code bench/run}, {@code bin/find-jdk}) expand is in it; and every name in the table is still
 * read somewhere. The JDK's own facts (os.name, user.name, java.io.tmpdir, …) are not settings.
 */
class SettingsTableTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final String HEADING = "### Environment variables and system properties";
    private static final Pattern CALL = Pattern.compile(
            "(?:System\\.getProperty|System\\.getenv|Boolean\\.getBoolean|Integer\\.getInteger|Long\\.getLong)\\(\\s*\"([^\"]+)\"");
    /** A constant a read goes through: PROPERTY, ENV, PCAP_DIR_ENV, ITERATIONS, LOG_FORMAT … = "jrdma.…" / "JRDMA_…" / a JDK logging key. */
    private static final Pattern CONSTANT = Pattern.compile(
            "static final String [A-Z_]+ = \"(jrdma\\.[a-z][A-Za-z.]*|JRDMA_[A-Z0-9_]+|java\\.util\\.logging\\.[A-Za-z.]+)\"");
    private static final Pattern SCRIPT_VAR = Pattern.compile("\\$\\{?([A-Z][A-Z0-9_]*)");
    /** Read, but the JVM's or the shell's facts, not settings of jrdma. */
    private static final Set<String> NOT_SETTINGS = Set.of("os.name", "os.arch", "os.version", "java.vendor", "java.io.tmpdir",
            "user.name", "java.class.path", "jdk.module.path", "BASH_SOURCE");
    private static final Set<String> SCRIPTS = Set.of("jrdma", "bench/run", "bin/find-jdk");

    @Test
    void everySettingTheCodeReadsIsInTheReadmeTable() throws IOException {
        Set<String> read = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(SettingsTableTest::mainSource).toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                collect(CALL, text, read);
                collect(CONSTANT, text, read);
            }
        }
        for (String s : SCRIPTS) {
            collect(SCRIPT_VAR, Files.readString(ROOT.resolve(s), StandardCharsets.UTF_8), read);
        }
        read.removeAll(NOT_SETTINGS);
        // the ones known to be read, so that a broken scan fails here instead of passing on nothing
        assertThat(read).contains("jrdma.stats.dir", "JRDMA_STATS_DIR", "jrdma.impair", "JRDMA_IMPAIR", "jrdma.jmx",
                "JRDMA_PCAP_DIR", "jrdma.debug", "JAVA_HOME");

        Set<String> table = tableNames();
        assertThat(table).as("README table").containsAll(read);
    }

    @Test
    void everyNameInTheTableIsStillRead() throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(SettingsTableTest::mainSource).toList()) {
                all.append(Files.readString(f, StandardCharsets.UTF_8));
            }
        }
        for (String s : SCRIPTS) {
            all.append(Files.readString(ROOT.resolve(s), StandardCharsets.UTF_8));
        }
        assertThat(tableNames()).allSatisfy(name -> assertThat(all.indexOf(name)).as(name + " is read somewhere").isNotNegative());
    }

    private static boolean mainSource(Path p) {
        String s = ROOT.relativize(p).toString().replace('\\', '/');
        return s.endsWith(".java") && s.contains("/src/main/java/") && !s.contains("/target/");
    }

    private static void collect(Pattern p, String text, Set<String> into) {
        Matcher m = p.matcher(text);
        while (m.find()) {
            into.add(m.group(1));
        }
    }

    /** The names (in backticks) of the first column of the table under {@link #HEADING}. */
    private static Set<String> tableNames() {
        List<String> lines;
        try {
            lines = Files.readAllLines(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int at = lines.indexOf(HEADING);
        assertThat(at).as("README has " + HEADING).isNotNegative();
        Set<String> names = new TreeSet<>();
        Pattern tick = Pattern.compile("`([^`]+)`");
        for (int i = at + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            String line = lines.get(i);
            if (!line.startsWith("| ") || line.startsWith("| name") || line.startsWith("| ---")) {
                continue;
            }
            Matcher m = tick.matcher(line.split("\\|")[1]);
            while (m.find()) {
                names.add(m.group(1));
            }
        }
        assertThat(names).as("names in the table").isNotEmpty();
        return names;
    }
}
