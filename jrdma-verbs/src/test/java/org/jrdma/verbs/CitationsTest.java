package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone (issue 14): every document a comment cites is in it. Scans every
 * source and doc file for the short citations that docs/spec/README.md maps — ROCEV2-FACTS §n.m
 * (docs/spec/rocev2-facts.md), RELIABILITY-SECURITY §n.m and the rule IDs SEC-nn, REL-nn, OOB-nn,
 * AUTH-nn, CH-nn (docs/spec/reliability-security.md), DESIGN.md and STYLE.md §n (docs/design.md),
 * ANCHORS.md (docs/anchors.md),
 * conformance/rxe/FILE (a copy among the test resources) — and fails naming file:line and the
 * citation when its entry is missing, or when a path into the shared spec directory outside
 * the repository is left anywhere. Test code only; reads the repository root as the parent of
 * this module's directory.
 */
class CitationsTest {
    private static final Set<String> SCANNED = Set.of(".java", ".md", ".sh", ".py", ".xml");
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "node_modules", ".mvn");

    /** Deliberate non-entries, by the one file each may appear in: an ID used on purpose as one that does not exist. */
    private static final Map<String, String> NOT_CITATIONS =
            Map.of("CH-" + "99", "jrdma-tools/src/test/java/org/jrdma/tools/chaos/ChaosCommandTest.java");

    // A section: §2.4, § 2.4, §1.9(c) (the letter is a part of the section's text).
    private static final String SECTION = "§\\s?(\\d+(?:\\.\\d+)*)(?:\\([a-z]\\))?";
    // A range's end: –4.2, -§6.11.
    private static final String RANGE_END = "(?:\\s?[–-]\\s?§?\\s?(\\d+(?:\\.\\d+)*))?";
    // Between the parts of a citation: spaces, line breaks with their comment leaders, backticks.
    private static final String GAP = "[\\s*/#`]*";
    private static final Pattern DOC = Pattern.compile(
            "\\b(ROCEV2-FACTS|RELIABILITY-SECURITY)(?:\\.md)?`?"
                    + "(?: (\\d+\\.\\d+(?:\\.\\d+)*))?" // "ROCEV2-FACTS 1.8", without the §
                    + "((?:" + GAP + "(?:,|and|or|/)?" + GAP + SECTION + RANGE_END + ")*)");
    private static final Pattern ONE_SECTION = Pattern.compile(SECTION + RANGE_END);
    private static final Pattern ID = Pattern.compile("\\b((?:SEC|REL|OOB|AUTH|CH)-\\d{2})[a-z]?\\b");
    private static final Pattern STYLE = Pattern.compile("\\bSTYLE(?:\\.md)?" + GAP + "§\\s?(\\d+)");
    private static final Pattern DESIGN = Pattern.compile("\\b(?:DESIGN|STYLE)\\.md\\b");
    private static final Pattern ANCHORS = Pattern.compile("\\bANCHORS\\.md\\b");
    private static final Pattern CAPTURE = Pattern.compile("conformance/rxe/([\\w-]+\\.[\\w.]*\\w)");
    private static final Pattern SHARED_SPEC = Pattern.compile("shared" + "/spec\\b");

    private static final Pattern HEADING_SECTION = Pattern.compile("(?m)^#{1,6} §(\\d+(?:\\.\\d+)*)(?![.\\d])");
    private static final Pattern ENTRY_ID = Pattern.compile("(?m)^(?:#{1,6} |- \\*\\*)((?:SEC|REL|OOB|AUTH|CH)-\\d{2})\\b");
    private static final Pattern HEADING_STYLE = Pattern.compile("(?m)^#{1,6} STYLE §(\\d+)\\b");

    @Test
    void everyCitationResolvesInsideTheRepository() throws IOException {
        Path root = repositoryRoot();
        Path spec = root.resolve("docs/spec");
        Set<String> facts = all(HEADING_SECTION, read(spec.resolve("rocev2-facts.md")));
        String reliability = read(spec.resolve("reliability-security.md"));
        Set<String> reliabilitySections = all(HEADING_SECTION, reliability);
        Set<String> ids = all(ENTRY_ID, reliability);
        Path design = root.resolve("docs/design.md");
        Set<String> style = Files.exists(design) ? all(HEADING_STYLE, read(design)) : Set.of();
        Set<String> resources = testResourceNames(root);

        List<String> problems = new ArrayList<>();
        int resolved = 0;
        for (Path file : sourceAndDocFiles(root)) {
            String where = root.relativize(file).toString().replace('\\', '/');
            String text = read(file);
            Matcher m = DOC.matcher(text);
            while (m.find()) {
                boolean rocev2 = m.group(1).equals("ROCEV2-FACTS");
                Set<String> known = rocev2 ? facts : reliabilitySections;
                String doc = rocev2 ? "docs/spec/rocev2-facts.md" : "docs/spec/reliability-security.md";
                List<String> cited = new ArrayList<>();
                if (m.group(2) != null) {
                    cited.add(m.group(2));
                }
                Matcher s = ONE_SECTION.matcher(m.group(3));
                while (s.find()) {
                    cited.addAll(range(s.group(1), s.group(2)));
                }
                for (String section : cited) {
                    if (known.contains(section)) {
                        resolved++;
                    } else {
                        problems.add(at(where, text, m.start()) + ": " + m.group(1) + " §" + section
                                + " has no heading \"§" + section + "\" in " + doc);
                    }
                }
                if (cited.isEmpty()) {
                    resolved++; // the document as a whole
                }
            }
            Matcher id = ID.matcher(text);
            while (id.find()) {
                if (ids.contains(id.group(1))) {
                    resolved++;
                } else if (!where.equals(NOT_CITATIONS.get(id.group(1)))) {
                    problems.add(at(where, text, id.start()) + ": " + id.group(1)
                            + " has no entry in docs/spec/reliability-security.md");
                }
            }
            Matcher st = STYLE.matcher(text);
            while (st.find()) {
                if (style.contains(st.group(1))) {
                    resolved++;
                } else {
                    problems.add(at(where, text, st.start()) + ": STYLE §" + st.group(1)
                            + " has no heading \"STYLE §" + st.group(1) + "\" in docs/design.md");
                }
            }
            Matcher d = DESIGN.matcher(text);
            while (d.find()) {
                if (!Files.exists(design)) {
                    problems.add(at(where, text, d.start()) + ": " + d.group() + " cited but docs/design.md is missing");
                }
            }
            Matcher an = ANCHORS.matcher(text);
            while (an.find()) {
                if (Files.exists(root.resolve("docs/anchors.md"))) {
                    resolved++;
                } else {
                    problems.add(at(where, text, an.start()) + ": ANCHORS.md cited but docs/anchors.md is missing");
                }
            }
            Matcher c = CAPTURE.matcher(text);
            while (c.find()) {
                if (resources.contains(c.group(1))) {
                    resolved++;
                } else {
                    problems.add(at(where, text, c.start()) + ": conformance/rxe/" + c.group(1)
                            + " has no copy among the test resources (docs/lab.md)");
                }
            }
            Matcher shared = SHARED_SPEC.matcher(text);
            while (shared.find()) {
                problems.add(at(where, text, shared.start()) + ": a path into the shared spec directory outside"
                        + " the repository; cite docs/spec instead (docs/spec/README.md)");
            }
        }
        System.out.printf("CitationsTest: %d citations resolved, %d unresolved%n", resolved, problems.size());
        assertThat(problems).as("citations with no entry inside the repository (docs/spec/README.md)").isEmpty();
        assertThat(resolved).as("citations found; is the repository root right?").isGreaterThan(500);
    }

    /** The sections a citation names: one, or both ends of a range and what lies between. */
    static List<String> range(String from, String to) {
        if (to == null) {
            return List.of(from);
        }
        int cut = from.lastIndexOf('.');
        String parent = cut < 0 ? "" : from.substring(0, cut + 1);
        if (!to.contains(".") && !parent.isEmpty()) {
            to = parent + to; // "§7.4–6" reads as 7.4 to 7.6
        }
        int toCut = to.lastIndexOf('.');
        String toParent = toCut < 0 ? "" : to.substring(0, toCut + 1);
        List<String> out = new ArrayList<>();
        if (parent.equals(toParent)) {
            int a = Integer.parseInt(from.substring(cut + 1));
            int b = Integer.parseInt(to.substring(toCut + 1));
            for (int i = a; i <= b && i - a < 50; i++) {
                out.add(parent + i);
            }
        }
        if (out.isEmpty()) {
            out.add(from);
            out.add(to);
        }
        return out;
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("jrdma-verbs")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }

    private static List<Path> sourceAndDocFiles(Path root) throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
            @Override
            public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
                return !dir.equals(root) && SKIPPED_DIRS.contains(dir.getFileName().toString())
                        ? java.nio.file.FileVisitResult.SKIP_SUBTREE : java.nio.file.FileVisitResult.CONTINUE;
            }

            @Override
            public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
                String name = file.getFileName().toString();
                int dot = name.lastIndexOf('.');
                if (a.isRegularFile() && dot >= 0 && SCANNED.contains(name.substring(dot))) {
                    files.add(file);
                }
                return java.nio.file.FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }

    private static Set<String> testResourceNames(Path root) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.toList()) {
                Path resources = module.resolve("src/test/resources");
                if (Files.isDirectory(resources)) {
                    try (Stream<Path> all = Files.walk(resources)) {
                        all.filter(Files::isRegularFile).forEach(p -> names.add(p.getFileName().toString()));
                    }
                }
            }
        }
        return names;
    }

    private static Set<String> all(Pattern p, String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static String at(String where, String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return where + ":" + line;
    }

    private static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
