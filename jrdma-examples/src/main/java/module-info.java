/**
 * Example programs, each a class with a {@code main}: only the public modules are required;
 * the soft provider (or the native one) is found on the module path by ServiceLoader, as in a
 * user's program.
 */
module org.jrdma.examples {
    requires org.jrdma.verbs;
    requires org.jrdma.bootstrap;
    requires org.jrdma.cm;
}
