package org.jrdma.bench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jrdma.bench.Baseline;
import org.jrdma.bench.Budget;
import org.jrdma.bench.Outcome;
import org.jrdma.bench.ProcessBaselineSide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each baseline end to end, as the runner runs it: a server and a client process with tiny
 * counts, the ready line, the JSON line parsed into a figure. No figure is judged: a
 * benchmark is not a test. Allocation is: the loops allocate nothing per operation. One
 * allocation per operation is at least 16 B/op (the smallest object); what a short run may
 * show below that is the JIT's, once (C2 deoptimizing re-materializes scalar-replaced
 * objects: 0 with -Xint, 0 from a few thousand iterations on).
 */
class BaselinesTest {
    private static final Budget TINY = new Budget(4L << 20, 100, 1_000, 0, 300, Duration.ofSeconds(60));
    private static final ProcessBaselineSide SIDE = ProcessBaselineSide.ofThisJvm();

    @Test
    void tcpStreamingCountsMessagesAtTheReceiver() {
        Outcome.Ok ok = assertMeasuredWithoutAllocation(SIDE.run(Baseline.TCP_STREAM, 4096, TINY));
        // 1,000 messages and a warm-up of 200, of 4 KiB, and the two processes' CPU over it
        assertThat(ok.gibMoved()).isEqualTo(1200.0 * 4096 / (1 << 30));
        // the pair's CPU after the server's ready line and the client's started line said theirs
        assertThat(ok.cpuSeconds()).as("CPU after the set-up").isNotNaN().isGreaterThan(-0.05).isLessThan(600);
        assertThat(ok.cpuSecondsPerGiB()).isEqualTo(ok.cpuSeconds() / ok.gibMoved());
        assertThat(ok.p99Us()).as("no tails for a stream").isNaN();
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.TCP_STREAM, 64, TINY));
    }

    @Test
    void tcpStreamingRunsForATimeToo() {
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.TCP_STREAM, 65536, TINY.withBwSeconds(1)));
    }

    @Test
    void udpPingPongMeasuresHalfTheRoundTrip() {
        assertTails(assertMeasuredWithoutAllocation(SIDE.run(Baseline.UDP_PINGPONG, 8, TINY)));
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.UDP_PINGPONG, 4096, TINY));
    }

    @Test
    void blockingUdpPingPongSleepsForEachDatagram() {
        assertTails(assertMeasuredWithoutAllocation(SIDE.run(Baseline.UDP_BLOCKING_PINGPONG, 8, TINY)));
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"server", "--blocking", "yes"}, java.util.Set.of("blocking"))
                .bool("blocking", false)).hasMessageContaining("--blocking must be true or false, got yes");
    }

    private static void assertTails(Outcome.Ok ok) {
        assertThat(ok.p99Us()).isGreaterThanOrEqualTo(ok.value());
        assertThat(ok.p999Us()).isGreaterThanOrEqualTo(ok.p99Us());
        assertThat(ok.gibMoved()).isNaN();
    }

    @Test
    void tcpPingPongMeasuresHalfTheRoundTrip() {
        assertTails(assertMeasuredWithoutAllocation(SIDE.run(Baseline.TCP_PINGPONG, 8, TINY)));
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.TCP_PINGPONG, 4096, TINY));
    }

    @Test
    void segmentCopyCopiesTheSizeInOneProcessCyclingThroughPerfsSlots() {
        Outcome.Ok ok = assertMeasuredWithoutAllocation(SIDE.run(Baseline.SEGMENT_COPY, 65536, TINY));
        // TINY at memory speed (× Budget.MEMORY_SPEED_FACTOR 16): 64 MiB ÷ 64 KiB = 1024 copies, and a warm-up of 204
        assertThat(ok.gibMoved()).isEqualTo(1228.0 * 65536 / (1 << 30));
        assertThat(ok.cpuSeconds()).as("CPU after its started line").isNotNaN().isGreaterThan(-0.05).isLessThan(600);
        assertThat(ok.p99Us()).isNaN();
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.SEGMENT_COPY, 1 << 20, TINY));
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.SEGMENT_COPY, 65536, TINY.withBwSeconds(1)));
        // perf's BufferLayout: regions of max(1 MiB, size in pages), 64-byte slots, at most 256; remote within max(size, 4 KiB)
        assertThat(SegmentCopy.regionBytes(65536)).isEqualTo(1 << 20);
        assertThat(SegmentCopy.regionBytes((3 << 20) + 1)).isEqualTo((3 << 20) + 4096);
        assertThat(SegmentCopy.sourceSlots(65536)).isEqualTo(16);
        assertThat(SegmentCopy.destinationSlots(65536)).isEqualTo(1);
        assertThat(SegmentCopy.sourceSlots(1 << 20)).isEqualTo(1);
        assertThat(SegmentCopy.sourceSlots(64)).isEqualTo(256);
        assertThat(SegmentCopy.destinationSlots(64)).isEqualTo(64);
        assertThat(SegmentCopy.destinationSlots(100)).as("stride 128").isEqualTo(32);
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"server", "--size", "8"}, java.util.List.of(SegmentCopy.ROLE),
                java.util.Set.of("size"))).hasMessageContaining("first argument must be local");
    }

    @Test
    void mappedPingPongMeasuresHalfTheRoundTripThroughASharedFile() throws Exception {
        assertTails(assertMeasuredWithoutAllocation(SIDE.run(Baseline.MAPPED_PINGPONG, 8, TINY)));
        assertMeasuredWithoutAllocation(SIDE.run(Baseline.MAPPED_PINGPONG, 4096, TINY));
        // the flags are 128 bytes apart at least: never one cache line, nor a prefetched pair
        assertThat(MappedPingPong.pongOffset(8)).isEqualTo(128);
        assertThat(MappedPingPong.pongOffset(64)).isEqualTo(128);
        assertThat(MappedPingPong.pongOffset(65)).isEqualTo(256);
        assertThat(MappedPingPong.fileBytes(4096)).isEqualTo(2 * (4096 + 128));
        assertThat(MappedPingPong.directory(BaselineArgs.parse(new String[] {"server", "--dir", "/x"}, java.util.Set.of("dir"))))
                .isEqualTo(Path.of("/x"));
    }

    @Test
    void theMappedPingPongsServerRemovesItsFileWhenStopped(@TempDir Path dir) throws Exception {
        // the runner stops a pair that overstays its deadline: the file must not stay behind in /dev/shm
        String java = ProcessHandle.current().info().command().orElse("java");
        String classes = Path.of(MappedPingPong.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process server = new ProcessBuilder(java, "-cp", classes, MappedPingPong.class.getName(),
                "server", "--size", "8", "--iters", "1", "--dir", dir.toString()).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            String ready = out.readLine();
            assertThat(ready).startsWith("{\"ready\":true,\"file\":\"" + dir);
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.toList()).hasSize(1);
            }
        } finally {
            server.destroy();
        }
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    private static Outcome.Ok assertMeasuredWithoutAllocation(Outcome o) {
        assertThat(o).isInstanceOf(Outcome.Ok.class);
        Outcome.Ok ok = (Outcome.Ok) o;
        assertThat(ok.value()).isPositive().isFinite();
        assertThat(ok.allocBytesPerOp()).as("bytes allocated per operation in the measured loop").isNotNaN().isLessThan(16);
        return ok;
    }

    @Test
    void halfRttSummarizesRoundTripsAsOneWayMicroseconds() {
        long[] rtt = {4000, 2000, 10_000, 6000};
        String line = HalfRtt.summarize(rtt, new JsonLine()).toString();
        assertThat(line).isEqualTo("{\"halfRttMinUs\":1,\"halfRttP50Us\":2,\"halfRttAvgUs\":2.75,\"halfRttP99Us\":5,"
                + "\"halfRttP999Us\":5,\"halfRttMaxUs\":5}");
    }

    @Test
    void argumentMistakesAreNamed() {
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"both"}, java.util.Set.of("size")))
                .hasMessageContaining("server or client");
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"server", "--sise", "8"}, java.util.Set.of("size")))
                .hasMessageContaining("unknown argument --sise");
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"server", "--size"}, java.util.Set.of("size")))
                .hasMessageContaining("--size needs a value");
        assertThatThrownBy(() -> BaselineArgs.parse(new String[] {"server", "--size", "0"}, java.util.Set.of("size")).positiveInt("size"))
                .hasMessageContaining("--size must be in 1..");
        assertThatThrownBy(() -> RunLength.from(BaselineArgs.parse(new String[] {"server", "--count", "5", "--seconds", "1"},
                java.util.Set.of("count", "seconds")))).hasMessageContaining("exactly one of --seconds and --count");
    }

    @Test
    void jsonLinesAreOneLineWithNullForWhatJsonCannotSay() {
        assertThat(new JsonLine().put("a", "x\"y").put("b", 3).put("c", 0.1234567).put("d", Double.NaN).put("e", true).toString())
                .isEqualTo("{\"a\":\"x\\\"y\",\"b\":3,\"c\":0.123457,\"d\":null,\"e\":true}");
    }
}
