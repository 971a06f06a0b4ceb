package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void usageMistakesExitTwoNamingTheMistake() {
        assertThat(run("--reps", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--reps must be >= 1, got 0", "Try 'bench/run --help'.");
        assertThat(run("--fast")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown option --fast");
        assertThat(run("--only", "write_bw@65")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("selects no shape", "write_bw@65536");
    }

    @Test
    void helpPrintsTheUsage() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("Usage: bench/run").contains("--quick", "--reps N", "--markdown FILE");
    }

    @Test
    void aMissingToolsJarExitsOneSayingHowToGetIt(@TempDir Path dir) {
        assertThat(run("--jrdma", dir.resolve("none.jar").toString())).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("no jrdma tools jar at", "--no-rdma");
    }

    @Test
    void quickMeansOneRepUnlessRepsIsGiven() {
        assertThat(BenchOptions.parse("--quick").reps()).isEqualTo(1);
        assertThat(BenchOptions.parse("--quick", "--reps", "5").reps()).isEqualTo(5);
        assertThat(BenchOptions.parse().reps()).isEqualTo(3);
        assertThat(BenchOptions.parse("--duration", "4").budget().bwSeconds()).isEqualTo(4);
        assertThat(BenchOptions.parse("--perf-args", " -m 4096  -t 64 ").perfArgs()).containsExactly("-m", "4096", "-t", "64");
    }

    @Test
    void theReportGoesToStandardOutputAndTheMarkdownFile(@TempDir Path dir) throws Exception {
        Path md = dir.resolve("sub/bench.md");
        FakeSides fake = new FakeSides((key, n) -> Outcome.ok(10.0, 0.0));
        BenchOptions o = BenchOptions.parse("--quick", "--only", "write_bw@65536", "--markdown", md.toString());
        int code = Main.run(o, fake.rdma(), fake.baselines(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(code).isZero();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(Files.readString(md)).isEqualTo(printed);
        assertThat(printed).contains("| write_bw 64 KiB | 10.0 MiB/s | 0.00 | TCP streaming: 10.0 MiB/s | 1.00× |");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("bench: rep 1/1  write_bw 64 KiB · TCP streaming");
    }
}
