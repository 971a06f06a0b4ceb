/** bin/release-check's module-path consumer: only the API modules; jrdma-soft is found at run time. */
module org.jrdma.consumer {
    requires org.jrdma.verbs;
    requires org.jrdma.bootstrap;
}
