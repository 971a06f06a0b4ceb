package org.jrdma.bench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.jrdma.bench.Baseline;
import org.jrdma.bench.Budget;
import org.jrdma.bench.Outcome;
import org.jrdma.bench.ProcessBaselineSide;
import org.junit.jupiter.api.Test;

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
