/**
 * The conformance suite every provider runs (JUnit tests to extend) and its helpers. Open, so
 * that JUnit reaches the suite's test methods and fixtures reflectively.
 */
open module org.jrdma.testkit {
    requires transitive org.jrdma.verbs;
    requires transitive org.junit.jupiter.api;
    requires transitive org.junit.jupiter.params;
    requires transitive org.assertj.core;
    // CapturedLog reads System.Logger records through java.util.logging
    requires java.logging;

    exports org.jrdma.testkit;
    exports org.jrdma.testkit.fuzz;
}
