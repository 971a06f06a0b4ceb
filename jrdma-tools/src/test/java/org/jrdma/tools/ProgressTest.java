package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jrdma.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The progress line: drawn in place with \r only on a terminal (or forced on), erased before the
 * run prints; piped, the output is exactly what it is without it.
 */
class ProgressTest {
    @AfterEach
    void unforce() {
        System.clearProperty(Progress.PROPERTY);
    }

    @Test
    void pipedDrawsNothing() throws Exception {
        // surefire's JVM has no terminal: System.console() is null or not one
        assertThat(Progress.enabled()).isFalse();
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        try (Progress p = Progress.start(out, () -> "status")) {
            assertThat(p).isSameAs(Progress.OFF);
            p.print(() -> out.println("row"));
        }
        out.flush();
        assertThat(text.toString()).isEqualTo("row\n");
        System.setProperty(Progress.PROPERTY, "off");
        assertThat(Progress.enabled()).isFalse();
    }

    @Test
    void forcedOnDrawsInPlaceAndErasesBeforePrinting() throws Exception {
        System.setProperty(Progress.PROPERTY, "on");
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        AtomicLong n = new AtomicLong(7);
        Progress p = Progress.start(out, () -> "working " + n.get());
        try {
            assertThat(p.isOn()).isTrue();
            Await.until(() -> snapshot(text).contains("\rworking 7"), Duration.ofSeconds(30), "the first draw");
            n.set(12345);
            Await.until(() -> snapshot(text).contains("\rworking 12345"), Duration.ofSeconds(30), "a redraw");
            p.print(() -> out.println("row"));
            String s = snapshot(text);
            // "working 12345" is 13 characters: erased by as many spaces, then the row at the line's start
            assertThat(s).endsWith("\r" + " ".repeat(13) + "\rrow\n");
        } finally {
            p.close();
        }
        String end = snapshot(text);
        assertThat(rendered(end)).as("what a terminal shows").doesNotContain("working");
        assertThat(rendered(end).strip()).isEqualTo("row");
    }

    /** demo -n with many rounds: the line counts round trips while they run and is gone before phase 5's figures. */
    @Test
    void demoShowsRoundTripsOnlyWhileTheyRun() throws Exception {
        String spec = FreeLoopback.deviceSpec("prg");
        System.setProperty(org.jrdma.soft.SoftDeviceDiscovery.PROPERTY, spec);
        try {
            String device = spec.substring(0, spec.indexOf('='));
            ToolRun piped = ToolRun.of("demo", "-d", device, "-n", "3000");
            assertThat(piped.code()).as(piped.toString()).isZero();
            assertThat(piped.out()).doesNotContain("\r", "round trips");
            System.setProperty(Progress.PROPERTY, "on");
            ToolRun r = ToolRun.of("demo", "-d", device, "-n", "20000");
            assertThat(r.code()).as(r.toString()).isZero();
            assertThat(r.out()).containsPattern("\r \\d+\\.\\d s  \\d+ of 20000 round trips");
            String shown = rendered(r.out());
            assertThat(shown).doesNotContain("round trips").contains("iters in");
            // the same lines as piped (their first words), figures aside
            assertThat(shown.lines().map(ProgressTest::head).toList()).isEqualTo(piped.out().lines().map(ProgressTest::head).toList());
        } finally {
            System.clearProperty(org.jrdma.soft.SoftDeviceDiscovery.PROPERTY);
        }
    }

    private static String head(String line) {
        String words = line.strip().replaceAll("[0-9.]+", "N").replaceAll("\\s+", " ");
        return words.substring(0, Math.min(12, words.length()));
    }

    private static String snapshot(StringWriter w) {
        synchronized (w.getBuffer()) {
            return w.toString();
        }
    }

    /** What a terminal shows: each line as its last \r-separated part overwrote the earlier ones. */
    static String rendered(String s) {
        StringBuilder sb = new StringBuilder();
        for (String line : s.split("\n", -1)) {
            char[] screen = new char[line.length()];
            java.util.Arrays.fill(screen, ' ');
            int col = 0;
            int width = 0;
            for (char c : line.toCharArray()) {
                if (c == '\r') {
                    col = 0;
                } else {
                    screen[col++] = c;
                    width = Math.max(width, col);
                }
            }
            sb.append(new String(screen, 0, width).stripTrailing()).append('\n');
        }
        return sb.substring(0, sb.length() - 1);
    }

    static List<String> rows(String s) {
        return s.lines().toList();
    }
}
