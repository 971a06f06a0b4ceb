package org.jrdma.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * README.md's Java is quoted from the examples, never written twice: every {@code ```java} block
 * in README must be, character for character (after removing common indentation), a region of
 * an example marked {@code // tag::name[]} … {@code // end::name[]}, and every marked region
 * must be quoted in README. So a change to either side that is not made to the other fails
 * here, and the code README shows is code that {@link ExamplesTest} runs.
 */
class ReadmeExcerptsTest {
    private static final Pattern TAG = Pattern.compile("\\s*// tag::([a-z0-9-]+)\\[]\\s*");
    private static final Pattern END = Pattern.compile("\\s*// end::([a-z0-9-]+)\\[]\\s*");
    private static final Path SOURCES = Path.of("src/main/java/org/jrdma/examples");

    @Test
    void readmesJavaBlocksAreTheExamplesTaggedRegionsAndNoRegionIsLeftOut() {
        List<String> problems = problems(read(readme()), sources());
        assertThat(problems).as("README.md against the tagged regions of " + SOURCES).isEmpty();
    }

    @Test
    void readmeQuotesAtLeastTheSeedAndTheWriteReadPrograms() {
        assertThat(blocks(read(readme()))).hasSizeGreaterThanOrEqualTo(3);
        assertThat(regions(sources())).containsKeys("seed", "write-read-server", "write-read-client");
    }

    @Test
    void aOneCharacterEditOfAReadmeBlockIsCaught() {
        String readme = read(readme());
        Map<String, String> sources = sources();
        String line = regions(sources).get("seed").lines().filter(l -> l.contains("allocate(4096)")).findFirst().orElseThrow();
        String edited = readme.replace(line, line.replaceFirst("4096", "4097"));
        assertThat(edited).isNotEqualTo(readme);
        assertThat(problems(edited, sources)).anySatisfy(p -> assertThat(p).contains("is no tagged region"))
                .anySatisfy(p -> assertThat(p).contains("'seed'").contains("not quoted in README"));
    }

    @Test
    void aOneCharacterEditOfATaggedRegionIsCaught() {
        String readme = read(readme());
        Map<String, String> sources = new TreeMap<>(sources());
        String seed = sources.get("Seed.java");
        int at = seed.indexOf("ctx.createCq(128");
        sources.put("Seed.java", seed.substring(0, at) + "ctx.createCq(129" + seed.substring(at + "ctx.createCq(128".length()));
        assertThat(problems(readme, sources)).anySatisfy(p -> assertThat(p).contains("is no tagged region"))
                .anySatisfy(p -> assertThat(p).contains("'seed'").contains("not quoted in README"));
    }

    @Test
    void anUnclosedOrDuplicateTagIsReported() {
        assertThat(problems("", Map.of("A.java", "    // tag::x[]\n    int a;\n"))).singleElement()
                .satisfies(p -> assertThat(p).contains("'x'").contains("never ended"));
        assertThat(problems("", Map.of("A.java", "// tag::x[]\n// end::x[]\n", "B.java", "// tag::x[]\n// end::x[]\n")))
                .anySatisfy(p -> assertThat(p).contains("'x'").contains("tagged twice"));
    }

    /** Everything wrong, in words; empty when README and the examples agree. */
    static List<String> problems(String readme, Map<String, String> sources) {
        List<String> problems = new ArrayList<>();
        Map<String, String> regions = new LinkedHashMap<>();
        for (Map.Entry<String, String> s : sources.entrySet()) {
            collect(s.getKey(), s.getValue(), regions, problems);
        }
        Map<String, Boolean> quoted = new LinkedHashMap<>();
        regions.keySet().forEach(name -> quoted.put(name, false));
        for (Block b : blocks(readme)) {
            String match = null;
            for (Map.Entry<String, String> r : regions.entrySet()) {
                if (r.getValue().equals(b.text())) {
                    match = r.getKey();
                }
            }
            if (match == null) {
                problems.add("README.md line " + b.line() + ": this ```java block is no tagged region of the examples"
                        + nearest(b.text(), regions));
            } else {
                quoted.put(match, true);
            }
        }
        quoted.forEach((name, used) -> {
            if (!used) {
                problems.add("region '" + name + "' is not quoted in README (quote it as a ```java block, or drop its tags)");
            }
        });
        return problems;
    }

    /** The tagged regions of one file, dedented, into {@code regions}; malformed tags into {@code problems}. */
    private static void collect(String file, String source, Map<String, String> regions, List<String> problems) {
        String open = null;
        List<String> body = new ArrayList<>();
        int lineNo = 0;
        for (String line : source.lines().toList()) {
            lineNo++;
            Matcher tag = TAG.matcher(line);
            Matcher end = END.matcher(line);
            if (tag.matches()) {
                if (open != null) {
                    problems.add(file + ":" + lineNo + ": tag '" + tag.group(1) + "' inside region '" + open + "'");
                }
                open = tag.group(1);
                body.clear();
            } else if (end.matches()) {
                if (!end.group(1).equals(open)) {
                    problems.add(file + ":" + lineNo + ": end of '" + end.group(1) + "' where " + (open == null ? "no region"
                            : "region '" + open + "'") + " is open");
                } else if (regions.putIfAbsent(open, dedent(body)) != null) {
                    problems.add(file + ":" + lineNo + ": region '" + open + "' is tagged twice");
                }
                open = null;
            } else if (open != null) {
                body.add(line);
            }
        }
        if (open != null) {
            problems.add(file + ": region '" + open + "' is never ended");
        }
    }

    /** Where a block and the region it looks most like first differ: enough to find the drift. */
    private static String nearest(String block, Map<String, String> regions) {
        String best = null;
        int bestLine = -1;
        List<String> b = block.lines().toList();
        for (Map.Entry<String, String> r : regions.entrySet()) {
            List<String> lines = r.getValue().lines().toList();
            int same = 0;
            while (same < Math.min(b.size(), lines.size()) && b.get(same).equals(lines.get(same))) {
                same++;
            }
            if (same > bestLine) {
                bestLine = same;
                best = r.getKey();
            }
        }
        if (best == null || bestLine == 0) {
            return "";
        }
        List<String> lines = regions.get(best).lines().toList();
        return " (nearest: region '" + best + "', which differs at its line " + (bestLine + 1) + ": README has «"
                + (bestLine < b.size() ? b.get(bestLine) : "(end)") + "», the source «"
                + (bestLine < lines.size() ? lines.get(bestLine) : "(end)") + "»)";
    }

    record Block(int line, String text) {
    }

    /** README's ```java blocks, dedented, with the line of each opening fence. */
    static List<Block> blocks(String markdown) {
        List<Block> out = new ArrayList<>();
        List<String> lines = markdown.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("```java")) {
                int start = i;
                List<String> body = new ArrayList<>();
                for (i++; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
                    body.add(lines.get(i));
                }
                out.add(new Block(start + 1, dedent(body)));
            }
        }
        return out;
    }

    static Map<String, String> regions(Map<String, String> sources) {
        Map<String, String> regions = new LinkedHashMap<>();
        List<String> ignored = new ArrayList<>();
        sources.forEach((file, text) -> collect(file, text, regions, ignored));
        return regions;
    }

    /** The lines without the indentation they all share (blank lines aside), joined by newlines. */
    static String dedent(List<String> lines) {
        int common = Integer.MAX_VALUE;
        for (String l : lines) {
            if (!l.isBlank()) {
                common = Math.min(common, l.length() - l.stripLeading().length());
            }
        }
        int cut = common == Integer.MAX_VALUE ? 0 : common;
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l.isBlank() ? "" : l.substring(cut)).append('\n');
        }
        return sb.toString();
    }

    /** Every example's source, by file name. */
    static Map<String, String> sources() {
        try (Stream<Path> files = Files.list(SOURCES)) {
            Map<String, String> out = new TreeMap<>();
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> out.put(p.getFileName().toString(), read(p)));
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository's README.md: tests run in the module's directory. */
    private static Path readme() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !(Files.exists(here.resolve("README.md")) && Files.exists(here.resolve("mvnw")))) {
            here = here.getParent();
        }
        assertThat(here).as("the repository root (README.md beside mvnw)").isNotNull();
        return here.resolve("README.md");
    }
}
