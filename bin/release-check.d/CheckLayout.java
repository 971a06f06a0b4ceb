import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * bin/release-check's validation of a deployed repository (a single-file program: a JDK is all
 * it needs).
 *
 * <pre>
 * java CheckLayout.java layout REPO VERSION SIGNED   checks the release layout, prints what it found
 * java CheckLayout.java requires MODULEPATH ROOT      prints the modules ROOT requires transitively
 *                                                     (non-static requires, jar and JDK descriptors)
 * java CheckLayout.java runtime-deps REPO VERSION     prints the tools' non-jrdma runtime dependencies
 * </pre>
 *
 * Every problem is collected and printed; the exit status is 1 when there is any.
 */
public final class CheckLayout {
    private static final String GROUP = "org.jrdma";
    /** artifactId → JPMS module name, for the jar artifacts. */
    private static final Map<String, String> JARS = Map.of(
            "jrdma-verbs", "org.jrdma.verbs",
            "jrdma-soft", "org.jrdma.soft",
            "jrdma-native", "org.jrdma.ibv",
            "jrdma-shm", "org.jrdma.shm",
            "jrdma-bootstrap", "org.jrdma.bootstrap",
            "jrdma-cm", "org.jrdma.cm",
            "jrdma-testkit", "org.jrdma.testkit",
            "jrdma-tools", "org.jrdma.tools",
            "jrdma-etcd", "org.jrdma.etcd");
    /**
     * Jars that are automatic modules, named by Automatic-Module-Name: jrdma-etcd, whose jetcd
     * jars split packages and so cannot be required by an explicit module.
     */
    private static final Set<String> AUTOMATIC = Set.of("jrdma-etcd");
    private static final List<String> POMS = List.of("jrdma-parent", "jrdma-bom");
    /** Built in the reactor, never deployed. */
    private static final List<String> NOT_DEPLOYED = List.of("jrdma-bench");

    private final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        switch (args.length > 0 ? args[0] : "") {
            case "layout" -> new CheckLayout().layout(Path.of(args[1]), args[2], Boolean.parseBoolean(args[3]));
            case "requires" -> requires(args[1], args[2]);
            case "runtime-deps" -> runtimeDeps(Path.of(args[1]), args[2]);
            default -> {
                System.err.println("usage: CheckLayout layout REPO VERSION SIGNED | requires MODULEPATH ROOT"
                        + " | runtime-deps REPO VERSION");
                System.exit(2);
            }
        }
    }

    private void layout(Path repo, String version, boolean signed) throws Exception {
        Path group = repo.resolve(GROUP.replace('.', '/'));
        int files = 0;
        for (String a : NOT_DEPLOYED) {
            if (Files.exists(group.resolve(a))) {
                problem(a + " was deployed; it must not be");
            }
        }
        for (String a : POMS) {
            files += artifact(group, a, version, signed, List.of(".pom"));
        }
        for (String a : new TreeSet<>(JARS.keySet())) {
            List<String> kinds = new ArrayList<>(List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar"));
            if (a.equals("jrdma-tools")) {
                kinds.add("-all.jar");
            }
            files += artifact(group, a, version, signed, kinds);
            Path dir = group.resolve(a).resolve(version);
            String base = a + "-" + version;
            moduleJars(a, dir.resolve(base + ".jar"), dir.resolve(base + "-sources.jar"),
                    dir.resolve(base + "-javadoc.jar"));
        }
        singleJar(group.resolve("jrdma-tools").resolve(version).resolve("jrdma-tools-" + version + "-all.jar"));
        bom(group.resolve("jrdma-bom").resolve(version).resolve("jrdma-bom-" + version + ".pom"), version);
        if (problems.isEmpty()) {
            System.out.println("layout: " + (POMS.size() + JARS.size()) + " artifacts, " + files
                    + " files with matching .md5/.sha1" + (signed ? " and .asc" : "") + ", maven-metadata.xml each;"
                    + " POMs complete, no ${...}; jars are modules; sources have module-info.java;"
                    + " javadoc has index.html and every exported package");
        } else {
            problems.forEach(p -> System.out.println("layout problem: " + p));
            System.exit(1);
        }
    }

    /** The artifact's files, checksums, signatures, metadata and POM; returns how many files were checked. */
    private int artifact(Path group, String artifactId, String version, boolean signed, List<String> kinds)
            throws Exception {
        Path dir = group.resolve(artifactId).resolve(version);
        int n = 0;
        for (String kind : kinds) {
            Path f = dir.resolve(artifactId + "-" + version + kind);
            n += file(f, signed) ? 1 : 0;
        }
        Path metadata = group.resolve(artifactId).resolve("maven-metadata.xml");
        if (file(metadata, false)) {
            Document m = xml(metadata);
            if (!text(m.getDocumentElement(), "versioning/versions/version").contains(version)
                    || !text(m.getDocumentElement(), "artifactId").equals(List.of(artifactId))) {
                problem(metadata + " does not list " + artifactId + " " + version);
            }
        }
        Path pom = dir.resolve(artifactId + "-" + version + ".pom");
        if (Files.exists(pom)) {
            pom(pom, artifactId, version);
        }
        return n;
    }

    /** Exists, non-empty, with .md5 and .sha1 of its bytes (and a .asc when signed). */
    private boolean file(Path f, boolean signed) throws Exception {
        if (!Files.isRegularFile(f) || Files.size(f) == 0) {
            problem("missing or empty: " + f);
            return false;
        }
        byte[] bytes = Files.readAllBytes(f);
        for (String algorithm : List.of("MD5", "SHA-1")) {
            Path sum = Path.of(f + "." + algorithm.toLowerCase().replace("-", ""));
            String want = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
            if (!Files.exists(sum)) {
                problem("missing " + sum);
            } else if (!Files.readString(sum).trim().split("\\s+")[0].equalsIgnoreCase(want)) {
                problem(sum + " does not match " + f.getFileName());
            }
        }
        if (signed && !Files.isRegularFile(Path.of(f + ".asc"))) {
            problem("missing signature " + f + ".asc");
        }
        return true;
    }

    /** Maven Central's required elements, concrete coordinates, nothing left to interpolate. */
    private void pom(Path pom, String artifactId, String version) throws Exception {
        String raw = Files.readString(pom);
        if (raw.contains("${")) {
            problem(pom.getFileName() + " still has ${...}: " + raw.substring(raw.indexOf("${"),
                    Math.min(raw.length(), raw.indexOf("${") + 40)));
        }
        Element p = xml(pom).getDocumentElement();
        expect(pom, p, "groupId", GROUP);
        expect(pom, p, "artifactId", artifactId);
        expect(pom, p, "version", version);
        for (String required : List.of("name", "description", "url", "licenses/license/name", "licenses/license/url",
                "developers/developer/name", "scm/connection", "scm/developerConnection", "scm/url")) {
            if (text(p, required).stream().noneMatch(s -> !s.isBlank())) {
                problem(pom.getFileName() + " has no " + required);
            }
        }
        if (!text(p, "parent/artifactId").isEmpty()) {
            problem(pom.getFileName() + " names a parent: a consumer should need no other POM");
        }
        for (Element d : elements(p, "dependencies/dependency")) {
            List<String> v = text(d, "version");
            if (v.size() != 1 || v.get(0).isBlank()) {
                problem(pom.getFileName() + ": dependency " + text(d, "artifactId") + " has no version");
            } else if (text(d, "groupId").equals(List.of(GROUP)) && !v.get(0).equals(version)) {
                problem(pom.getFileName() + ": dependency " + text(d, "artifactId") + " at " + v.get(0));
            }
            if (text(d, "scope").contains("test")) {
                problem(pom.getFileName() + ": a test dependency " + text(d, "artifactId") + " is published");
            }
        }
    }

    private void bom(Path pom, String version) throws Exception {
        if (!Files.exists(pom)) {
            return;
        }
        Element p = xml(pom).getDocumentElement();
        Set<String> managed = new TreeSet<>();
        for (Element d : elements(p, "dependencyManagement/dependencies/dependency")) {
            if (!text(d, "groupId").equals(List.of(GROUP)) || !text(d, "version").equals(List.of(version))) {
                problem("the BOM manages " + text(d, "groupId") + ":" + text(d, "artifactId") + ":"
                        + text(d, "version") + " (only org.jrdma at " + version + " belongs there)");
            }
            managed.add(text(d, "artifactId").get(0) + text(d, "classifier").stream().map(c -> ":" + c).findFirst().orElse(""));
        }
        Set<String> want = new TreeSet<>(JARS.keySet());
        want.add("jrdma-tools:all");
        if (!managed.equals(want)) {
            problem("the BOM manages " + managed + ", not " + want);
        }
    }

    /** The jar is the named module; the sources have its descriptor; javadoc documents its exports. */
    private void moduleJars(String artifactId, Path jar, Path sources, Path javadoc) throws IOException {
        if (!Files.exists(jar) || !Files.exists(sources) || !Files.exists(javadoc)) {
            return;
        }
        Optional<ModuleReference> ref = ModuleFinder.of(jar).findAll().stream().findFirst();
        ModuleDescriptor md = ref.map(ModuleReference::descriptor).orElse(null);
        if (AUTOMATIC.contains(artifactId)) {
            automaticJar(artifactId, jar, md, sources, javadoc);
            return;
        }
        if (md == null || md.isAutomatic() || !md.name().equals(JARS.get(artifactId))) {
            problem(jar.getFileName() + " is not the explicit module " + JARS.get(artifactId)
                    + (md == null ? "" : " (found " + md.name() + (md.isAutomatic() ? ", automatic" : "") + ")"));
            return;
        }
        try (ZipFile src = new ZipFile(sources.toFile()); ZipFile doc = new ZipFile(javadoc.toFile())) {
            if (src.getEntry("module-info.java") == null) {
                problem(sources.getFileName() + " has no module-info.java");
            }
            sourcesAndIndex(md, src, sources, doc, javadoc);
            for (ModuleDescriptor.Exports e : md.exports()) {
                String page = md.name() + "/" + e.source().replace('.', '/') + "/package-summary.html";
                if (doc.getEntry(page) == null) {
                    problem(javadoc.getFileName() + " does not document exported package " + e.source() + " (" + page + ")");
                }
            }
            if (doc.getEntry(md.name() + "/module-summary.html") == null) {
                problem(javadoc.getFileName() + " has no module page for " + md.name());
            }
        }
    }

    /** Every package of the jar has sources, and the javadoc jar has its index (explicit and automatic modules alike). */
    private void sourcesAndIndex(ModuleDescriptor md, ZipFile src, Path sources, ZipFile doc, Path javadoc) {
        for (String pkg : md.packages()) {
            String dir = pkg.replace('.', '/') + "/";
            if (src.stream().noneMatch(e -> e.getName().startsWith(dir) && e.getName().endsWith(".java"))) {
                problem(sources.getFileName() + " has no sources of package " + pkg);
            }
        }
        if (doc.getEntry("index.html") == null) {
            problem(javadoc.getFileName() + " has no index.html");
        }
    }

    /** An automatic module: its name from the manifest, sources and javadoc of its packages, no descriptor. */
    private void automaticJar(String artifactId, Path jar, ModuleDescriptor md, Path sources, Path javadoc) throws IOException {
        if (md == null || !md.isAutomatic() || !md.name().equals(JARS.get(artifactId))) {
            problem(jar.getFileName() + " is not the automatic module " + JARS.get(artifactId)
                    + (md == null ? "" : " (found " + md.name() + (md.isAutomatic() ? ", automatic" : ", explicit") + ")"));
            return;
        }
        try (JarFile j = new JarFile(jar.toFile()); ZipFile src = new ZipFile(sources.toFile());
                ZipFile doc = new ZipFile(javadoc.toFile())) {
            if (!md.name().equals(j.getManifest().getMainAttributes().getValue("Automatic-Module-Name"))) {
                problem(jar.getFileName() + " has no Automatic-Module-Name " + md.name());
            }
            sourcesAndIndex(md, src, sources, doc, javadoc);
        }
    }

    /** The runnable jar: a Main-Class, the providers' services merged, no module descriptor. */
    private void singleJar(Path jar) throws IOException {
        if (!Files.exists(jar)) {
            return;
        }
        try (JarFile j = new JarFile(jar.toFile())) {
            if (!"org.jrdma.tools.Main".equals(j.getManifest().getMainAttributes().getValue("Main-Class"))) {
                problem(jar.getFileName() + " has no Main-Class org.jrdma.tools.Main");
            }
            if (j.getEntry("module-info.class") != null) {
                problem(jar.getFileName() + " has a module-info.class (it is the class-path jar)");
            }
            var services = j.getEntry("META-INF/services/org.jrdma.verbs.spi.Provider");
            String providers = services == null ? "" : new String(j.getInputStream(services).readAllBytes());
            if (!providers.contains("org.jrdma.soft.SoftProvider") || !providers.contains("org.jrdma.ibv.NativeProvider")) {
                problem(jar.getFileName() + " does not list both providers in META-INF/services");
            }
        }
    }

    /** The modules that ROOT requires, transitively (static requires are not resolved by jlink). */
    private static void requires(String modulePath, String root) {
        ModuleFinder finder = ModuleFinder.compose(
                ModuleFinder.of(java.util.Arrays.stream(modulePath.split(java.io.File.pathSeparator)).map(Path::of)
                        .toArray(Path[]::new)),
                ModuleFinder.ofSystem());
        Set<String> seen = new TreeSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!seen.add(name)) {
                continue;
            }
            ModuleDescriptor md = finder.find(name).orElseThrow(() -> new IllegalStateException("no module " + name))
                    .descriptor();
            for (ModuleDescriptor.Requires r : md.requires()) {
                if (!r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
                    todo.push(r.name());
                }
            }
        }
        seen.forEach(System.out::println);
    }

    /** groupId:artifactId:version of the tools POM's non-jrdma dependencies (the jlink image needs them). */
    private static void runtimeDeps(Path repo, String version) throws Exception {
        Path pom = repo.resolve(GROUP.replace('.', '/')).resolve("jrdma-tools").resolve(version)
                .resolve("jrdma-tools-" + version + ".pom");
        for (Element d : elements(xml(pom).getDocumentElement(), "dependencies/dependency")) {
            if (!text(d, "groupId").equals(List.of(GROUP)) && !text(d, "scope").contains("test")) {
                System.out.println(text(d, "groupId").get(0) + ":" + text(d, "artifactId").get(0) + ":"
                        + text(d, "version").get(0));
            }
        }
    }

    private void expect(Path pom, Element p, String path, String want) {
        if (!text(p, path).equals(List.of(want))) {
            problem(pom.getFileName() + ": " + path + " is " + text(p, path) + ", not " + want);
        }
    }

    private void problem(String p) {
        problems.add(p);
    }

    private static Document xml(Path f) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        try (InputStream in = Files.newInputStream(f)) {
            return dbf.newDocumentBuilder().parse(in);
        }
    }

    /** The elements at a slash-separated path of child element names under {@code from}. */
    private static List<Element> elements(Element from, String path) {
        List<Element> level = List.of(from);
        for (String step : path.split("/")) {
            List<Element> next = new ArrayList<>();
            for (Element e : level) {
                NodeList children = e.getChildNodes();
                for (int i = 0; i < children.getLength(); i++) {
                    Node c = children.item(i);
                    if (c instanceof Element ce && ce.getTagName().equals(step)) {
                        next.add(ce);
                    }
                }
            }
            level = next;
        }
        return level;
    }

    private static List<String> text(Element from, String path) {
        return elements(from, path).stream().map(e -> e.getTextContent().trim()).toList();
    }
}
