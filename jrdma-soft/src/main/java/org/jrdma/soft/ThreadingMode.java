package org.jrdma.soft;

/** Who runs a soft device's engine ({@link SoftHca#doWork()}). */
public enum ThreadingMode {
    /** A device thread runs the engine (application threads help when they poll). */
    DEDICATED,
    /** Only callers run it: deterministic tests step the transport themselves. */
    INVOKER
}
