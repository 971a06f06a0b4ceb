package org.jrdma.bench;

import java.nio.file.Path;

/** Where this module's test classes are: patched into the module, they are on no path property. */
final class TestClasses {
    private TestClasses() {
    }

    static String location() {
        try {
            return Path.of(TestClasses.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
