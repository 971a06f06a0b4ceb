package org.jrdma.testkit;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The class path for a child JVM that a test starts: this JVM's class path, its module path
 * (tests run on the module path, so the modules under test are there, not on java.class.path)
 * and the code source of each anchor class (a test class patched into its module is on
 * neither). The child runs all of it on its class path.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * The entries, distinct and in that order, joined by the path separator.
     *
     * @param anchors classes whose code sources are added (test classes patched into a module)
     * @return the class path
     * @throws IllegalArgumentException if a class has no file location
     */
    public static String classPath(Class<?>... anchors) {
        Set<String> entries = new LinkedHashSet<>();
        for (String property : new String[] {"java.class.path", "jdk.module.path"}) {
            for (String e : System.getProperty(property, "").split(File.pathSeparator)) {
                if (!e.isEmpty()) {
                    entries.add(e);
                }
            }
        }
        for (Class<?> c : anchors) {
            entries.add(location(c));
        }
        return String.join(File.pathSeparator, entries);
    }

    /**
     * Only where the {@code classes} were loaded from, joined by the path separator: a child that needs nothing else.
     *
     * @param classes the classes the child needs
     * @return the class path
     * @throws IllegalArgumentException if a class has no file location
     */
    public static String codeSources(Class<?>... classes) {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : classes) {
            entries.add(location(c));
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("no file location for " + c.getName(), e);
        }
    }
}
