package org.jrdma.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records a {@link System.Logger} writes while a test runs (through java.util.logging,
 * the JDK's default backend), so that a test can count the warnings it expects — "exactly one"
 * — instead of reading stderr. {@link #close()} detaches it.
 */
public final class CapturedLog implements AutoCloseable {
    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private CapturedLog(String name) {
        logger = Logger.getLogger(name);
        handler.setLevel(Level.ALL);
        logger.addHandler(handler);
    }

    /**
     * Captures what the logger {@code name} (and the loggers below it) write from now on.
     *
     * @param name a logger name, e.g. {@code org.jrdma.soft}
     * @return the capture; close it to detach
     */
    public static CapturedLog of(String name) {
        return new CapturedLog(name);
    }

    /**
     * The formatted messages at WARNING or above that contain {@code text}.
     *
     * @param text what a message must contain
     * @return the messages, in order
     */
    public List<String> warnings(String text) {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .map(CapturedLog::message).filter(m -> m.contains(text)).toList();
    }

    /**
     * Every formatted message at WARNING or above.
     *
     * @return the messages, in order
     */
    public List<String> warnings() {
        return warnings("");
    }

    private static String message(LogRecord r) {
        Object[] p = r.getParameters();
        return p == null || p.length == 0 ? r.getMessage() : java.text.MessageFormat.format(r.getMessage(), p);
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
