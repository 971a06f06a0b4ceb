package org.jrdma.soft.engine;

/** Who runs a soft device's engine ({@link SoftHca#doWork()}). */
public enum ThreadingMode {
    /** A device thread runs the engine (application threads help when they poll). */
    DEDICATED,
    /** Only explicit {@link SoftHca#doWork()} calls run it (not even polls or posts): tests step the transport. */
    INVOKER
}
