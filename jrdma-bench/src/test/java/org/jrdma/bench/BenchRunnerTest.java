package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchRunnerTest {
    private static final PrintStream QUIET = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    @Test
    void everyShapeOfTheIssueHasItsRowsAgainstItsBaselines() {
        FakeSides fake = new FakeSides((key, n) -> Outcome.ok(
                key.contains("_lat") ? 4.0 : key.contains("ping-pong") ? 2.0 : 100.0, 0.0));
        List<Row> rows = new BenchRunner(Plan.issue(), Budget.quick(), 1, fake.rdma(), fake.baselines(), QUIET).run();

        assertThat(rows.stream().map(r -> r.shape().label() + " vs " + r.baselineLabel()).toList()).containsExactly(
                "write_bw 64 B vs TCP streaming", "write_bw 4 KiB vs TCP streaming", "write_bw 64 KiB vs TCP streaming",
                "write_bw 1 MiB vs TCP streaming",
                "send_bw 64 B vs TCP streaming", "send_bw 4 KiB vs TCP streaming", "send_bw 64 KiB vs TCP streaming",
                "send_bw 1 MiB vs TCP streaming",
                "read_bw 64 B vs TCP streaming", "read_bw 4 KiB vs TCP streaming", "read_bw 64 KiB vs TCP streaming",
                "read_bw 1 MiB vs TCP streaming", "write_bw 64 B -l 16 vs TCP streaming",
                "write_bw 64 KiB -q 16 vs jrdma write_bw 64 KiB", "write_bw 64 KiB beside 1000 idle QPs vs jrdma write_bw 64 KiB",
                "send_lat 8 B vs UDP ping-pong", "send_lat 8 B vs TCP ping-pong", "send_lat 4 KiB vs UDP ping-pong",
                "send_lat 4 KiB vs TCP ping-pong",
                "write_lat 8 B vs UDP ping-pong", "write_lat 8 B vs TCP ping-pong", "write_lat 4 KiB vs UDP ping-pong",
                "write_lat 4 KiB vs TCP ping-pong",
                "send_lat 8 B -e vs blocking UDP ping-pong",
                "write_bw 64 KiB --provider shm vs MemorySegment.copy", "write_bw 1 MiB --provider shm vs MemorySegment.copy",
                "send_lat 8 B --provider shm vs mapped-file ping-pong", "send_lat 8 B --provider shm vs UDP ping-pong",
                "write_lat 8 B --provider shm vs mapped-file ping-pong", "write_lat 8 B --provider shm vs UDP ping-pong");
        assertThat(rows.stream().filter(r -> !r.targets().isEmpty())
                .map(r -> r.shape().label() + " " + String.join(", ", r.targets().stream().map(Target::text).toList()))).containsExactly(
                "write_bw 64 B ≥ 1.00×, ≥ 1.00 M msg/s, CPU/GiB ≤ 1.50×", "write_bw 4 KiB ≥ 0.80×, CPU/GiB ≤ 1.50×",
                "write_bw 64 KiB ≥ 1.00×, CPU/GiB ≤ 1.50×", "write_bw 1 MiB ≥ 1.00×, CPU/GiB ≤ 1.50×",
                "send_bw 64 B ≥ 1.00×, ≥ 1.00 M msg/s, CPU/GiB ≤ 1.50×", "send_bw 4 KiB ≥ 0.80×, CPU/GiB ≤ 1.50×",
                "send_bw 64 KiB ≥ 1.00×, CPU/GiB ≤ 1.50×", "send_bw 1 MiB ≥ 1.00×, CPU/GiB ≤ 1.50×",
                "read_bw 64 B ≥ 1.00×, ≥ 1.00 M msg/s, CPU/GiB ≤ 1.50×", "read_bw 4 KiB ≥ 0.80×, CPU/GiB ≤ 1.50×",
                "read_bw 64 KiB ≥ 1.00×, CPU/GiB ≤ 1.50×", "read_bw 1 MiB ≥ 1.00×, CPU/GiB ≤ 1.50×",
                "write_bw 64 B -l 16 ≥ 1.00×, ≥ 1.00 M msg/s, CPU/GiB ≤ 1.50×",
                "write_bw 64 KiB -q 16 ≥ 0.90×", "write_bw 64 KiB beside 1000 idle QPs ≥ 0.90×",
                "send_lat 8 B ≤ 1.30×, p99 ≤ 2.00×, p99.9 ≤ 3.00×", "write_lat 8 B ≤ 1.50×", "send_lat 8 B -e ≤ 1.50×",
                "write_bw 1 MiB --provider shm ≥ 0.70×", "send_lat 8 B --provider shm ≤ 0.50 µs",
                "write_lat 8 B --provider shm ≤ 0.50 µs");
        // the jrdma-against-jrdma rows ran the plain shape again, as their baseline, right beside the variant
        assertThat(fake.calls).containsSubsequence("jrdma write_bw 65536", "jrdma write_bw 65536 q16", "jrdma write_bw 65536",
                "jrdma write_bw 65536 idle1000");
        assertThat(fake.calls).containsSubsequence("blocking UDP ping-pong 8", "jrdma send_lat 8 events");
        // the post-list row has its own TCP streaming run of 64 B beside it
        assertThat(fake.calls).containsSubsequence("TCP streaming 64", "jrdma write_bw 64", "TCP streaming 64", "jrdma write_bw 64 l16");

        String md = Report.markdown(context(1, "fake jrdma"), rows);
        assertThat(md.lines().filter(l -> l.matches("\\| \\w+_(bw|lat) .*")
                && l.split("\\|").length == 8)).hasSize(30);
        assertThat(md).contains("| write_bw 64 KiB | 100 MiB/s | 0.00 | TCP streaming: 100 MiB/s | 1.00× | ≥ 1.00×, CPU/GiB ≤ 1.50×, 0 B/op | ? |",
                "| write_bw 64 KiB -q 16 | 100 MiB/s | 0.00 | jrdma write_bw 64 KiB: 100 MiB/s | 1.00× | ≥ 0.90×, 0 B/op | yes |",
                "| send_lat 8 B | 4.00 µs | 0.00 | UDP ping-pong: 2.00 µs | 2.00× | ≤ 1.30×, p99 ≤ 2.00×, p99.9 ≤ 3.00×, 0 B/op | **no** |",
                "| send_lat 8 B -e | 4.00 µs | 0.00 | blocking UDP ping-pong: 2.00 µs | 2.00× | ≤ 1.50×, 0 B/op | **no** |",
                "ratio = jrdma ÷ baseline", "lower is better", "higher is better", "load average", "Targets (issue 15):",
                // 1.6384 M msg/s, rounded against its lower bound
                "- write_bw 64 B ≥ 1.00 M msg/s: 1.63 M msg/s — yes",
                "- write_bw 64 KiB CPU/GiB ≤ 1.50× TCP streaming: no figure — ?");
    }

    @Test
    void tailsCpuAndMessageRateHaveTheirTablesRatiosAndTargets() {
        // send_lat 8 B: jrdma p50/p99/p99.9 = 3/8/30 µs, UDP 2/3/10 -> 1.5×, 2.67×, 3.0×
        // write_bw 64 B: jrdma 30 MiB/s (0.49 M msg/s), 6 CPU s over 0.5 GiB = 12 s/GiB; TCP 60 MiB/s, 2 s over 0.5 GiB = 4 s/GiB
        FakeSides fake = new FakeSides((key, n) -> switch (key) {
            case "jrdma send_lat 8" -> Outcome.ok(3.0, 0.0).withTails(8.0, 30.0);
            case "UDP ping-pong 8" -> Outcome.ok(2.0, 0.0).withTails(3.0, 10.0);
            case "TCP ping-pong 8" -> Outcome.ok(4.0, 0.0).withTails(Double.NaN, Double.NaN);
            case "jrdma write_bw 64" -> Outcome.ok(30.0, 0.0).withCpu(6.0, 0.5);
            case "TCP streaming 64" -> Outcome.ok(60.0, 0.0).withCpu(2.0, 0.5);
            default -> throw new AssertionError(key);
        });
        Plan plan = Plan.issue().only(List.of("write_bw@64", "send_lat@8:events"));
        assertThat(plan.shapes()).containsExactly(new Shape("write_bw", 64), new Shape("write_bw", 64, Variant.L16),
                new Shape("send_lat", 8, Variant.EVENTS));
        assertThat(Plan.issue().only(List.of("write_bw@64:l16")).shapes()).containsExactly(new Shape("write_bw", 64, Variant.L16));
        assertThat(Plan.issue().only(List.of("write_bw@65536:plain")).shapes()).containsExactly(new Shape("write_bw", 65536));
        assertThat(Plan.issue().only(List.of("write_bw@65536")).shapes()).hasSize(4);
        plan = Plan.issue().only(List.of("write_bw@64:plain", "send_lat@8"));
        assertThat(plan.shapes()).containsExactly(new Shape("write_bw", 64), new Shape("send_lat", 8), new Shape("send_lat", 8, Variant.EVENTS),
                new Shape("send_lat", 8, Variant.SHM));
        plan = new Plan(plan.shapes().subList(0, 2));
        List<Row> rows = new BenchRunner(plan, Budget.quick(), 1, fake.rdma(), fake.baselines(), QUIET).run();

        Row bw = rows.get(0);
        assertThat(bw.rdmaCpuPerGiB().median()).isEqualTo(12.0);
        assertThat(bw.baseCpuPerGiB().median()).isEqualTo(4.0);
        assertThat(bw.measured(Target.Measure.CPU_RATIO).median()).isCloseTo(3.0, within(1e-12));
        assertThat(bw.rdmaMsgRate().median()).isCloseTo(30.0 * (1 << 20) / 64 / 1e6, within(1e-12));
        assertThat(bw.verdict()).isEqualTo(Row.Verdict.NOT_MET);
        Row udp = rows.get(1);
        assertThat(udp.measured(Target.Measure.P99_RATIO).median()).isCloseTo(8.0 / 3.0, within(1e-12));
        assertThat(udp.measured(Target.Measure.P999_RATIO).median()).isCloseTo(3.0, within(1e-12));
        assertThat(udp.verdict(Target.atMost(Target.Measure.P999_RATIO, 3.0))).isEqualTo(Row.Verdict.MET);
        assertThat(udp.verdict(Target.atMost(Target.Measure.P99_RATIO, 2.0))).isEqualTo(Row.Verdict.NOT_MET);
        assertThat(rows.get(2).measured(Target.Measure.P99_RATIO)).as("no baseline p99: no ratio").isNull();

        String md = Report.markdown(context(1, "fake jrdma"), rows);
        assertThat(md).contains("| shape | baseline | jrdma | baseline | ratio |",
                "| send_lat 8 B | UDP ping-pong | 3.00 / 8.00 / 30.00 | 2.00 / 3.00 / 10.00 | 1.50× / 2.67× / 3.00× |",
                "| send_lat 8 B | TCP ping-pong | 3.00 / 8.00 / 30.00 | 4.00 / – / – | 0.75× / – / – |",
                "| shape | jrdma msg/s | jrdma CPU s/GiB | baseline | baseline CPU s/GiB | CPU ratio |",
                "| write_bw 64 B | 492 k | 12.0 | TCP streaming | 4.000 | 3.00× |",
                "- write_bw 64 B ≥ 1.00× TCP streaming: 0.50× — **no**",
                "- write_bw 64 B ≥ 1.00 M msg/s: 0.49 M msg/s — **no**",
                "- write_bw 64 B CPU/GiB ≤ 1.50× TCP streaming: 3.00× — **no**",
                "- send_lat 8 B ≤ 1.30× UDP ping-pong: 1.50× — **no**",
                "- send_lat 8 B p99 ≤ 2.00× UDP ping-pong: 2.67× — **no**",
                "- send_lat 8 B p99.9 ≤ 3.00× UDP ping-pong: 3.00× — yes");
    }

    @Test
    void ratioIsTheMedianOfEachRepsJrdmaOverItsBaselineNotTheRatioOfMedians() {
        // jrdma write_bw 64 KiB: 1000, 1200, 800; TCP: 2000, 2000, 1000 -> per rep 0.5, 0.6, 0.8
        double[] rdmaBw = {1000, 1200, 800};
        double[] tcpBw = {2000, 2000, 1000};
        // send_lat 8 B: jrdma 4.0, 3.0, 5.0 µs; UDP 1.6, 2.0, 2.0 -> 2.5, 1.5, 2.5
        double[] rdmaLat = {4.0, 3.0, 5.0};
        double[] udp = {1.6, 2.0, 2.0};
        FakeSides fake = new FakeSides((key, n) -> switch (key) {
            case "jrdma write_bw 65536" -> Outcome.ok(rdmaBw[n], 0.0);
            case "TCP streaming 65536" -> Outcome.ok(tcpBw[n], Double.NaN);
            case "jrdma send_lat 8" -> Outcome.ok(rdmaLat[n], 0.5);
            case "UDP ping-pong 8" -> Outcome.ok(udp[n], 0.0);
            case "TCP ping-pong 8" -> Outcome.ok(3.0, 0.0);
            default -> throw new AssertionError(key);
        });
        Plan plan = Plan.issue().only(List.of("write_bw@65536:plain", "send_lat@8:plain"));
        List<Row> rows = new BenchRunner(plan, Budget.quick(), 3, fake.rdma(), fake.baselines(), QUIET).run();

        Row write = rows.get(0);
        assertThat(write.rdmaSummary()).isEqualTo(new Summary(3, 1000, 800, 1200));
        assertThat(write.baseSummary()).isEqualTo(new Summary(3, 2000, 1000, 2000));
        assertThat(write.ratio().median()).isCloseTo(0.6, within(1e-12));
        assertThat(write.ratio().min()).isCloseTo(0.5, within(1e-12));
        assertThat(write.ratio().max()).isCloseTo(0.8, within(1e-12));
        assertThat(write.verdict(Target.atLeast(1.0))).isEqualTo(Row.Verdict.NOT_MET);
        assertThat(write.verdict(Target.atLeast(0.6))).isEqualTo(Row.Verdict.MET); // the median, not the min
        assertThat(write.verdict()).isEqualTo(Row.Verdict.NOT_MET);

        Row sendUdp = rows.get(1);
        assertThat(sendUdp.baseline()).isEqualTo(Baseline.UDP_PINGPONG);
        assertThat(sendUdp.ratio().median()).isCloseTo(2.5, within(1e-12));
        assertThat(sendUdp.targetVerdict()).isEqualTo(Row.Verdict.NOT_MET);
        assertThat(sendUdp.allocVerdict()).isEqualTo(Row.Verdict.MET);
        Row sendTcp = rows.get(2);
        assertThat(sendTcp.ratio().median()).isCloseTo(4.0 / 3.0, within(1e-12));
        assertThat(sendTcp.verdict()).isEqualTo(Row.Verdict.MET); // no target: allocation alone

        String md = Report.markdown(context(3, "fake jrdma"), rows);
        assertThat(md).contains("| write_bw 64 KiB | 1000 [800–1200] MiB/s | 0.00 | TCP streaming: 2000 [1000–2000] MiB/s | 0.60× [0.50–0.80] | ≥ 1.00×, CPU/GiB ≤ 1.50×, 0 B/op | **no** |",
                "| send_lat 8 B | 4.00 [3.00–5.00] µs | 0.50 | UDP ping-pong: 2.00 [1.60–2.00] µs | 2.50× [1.50–2.50] | ≤ 1.30×, p99 ≤ 2.00×, p99.9 ≤ 3.00×, 0 B/op | **no** |",
                "- write_bw 64 KiB ≥ 1.00× TCP streaming: 0.60× — **no**",
                "- send_lat 8 B ≤ 1.30× UDP ping-pong: 2.50× — **no**",
                "- send_lat 8 B p99 ≤ 2.00× UDP ping-pong: no figure — ?",
                "- zero bytes allocated per operation: at most 0.50 B/op — yes");
    }

    @Test
    void eachRepRunsAShapesSidesBackToBackAlternatingWhichGoesFirst() {
        FakeSides fake = new FakeSides((key, n) -> Outcome.ok(1.0, 0.0));
        Plan plan = Plan.issue().only(List.of("write_bw@64:plain", "send_lat@8:plain"));
        new BenchRunner(plan, Budget.quick(), 2, fake.rdma(), fake.baselines(), QUIET).run();

        assertThat(fake.calls).containsExactly(
                "TCP streaming 64", "jrdma write_bw 64", "UDP ping-pong 8", "TCP ping-pong 8", "jrdma send_lat 8",
                "jrdma write_bw 64", "TCP streaming 64", "jrdma send_lat 8", "UDP ping-pong 8", "TCP ping-pong 8");
    }

    @Test
    void failedRunsAreNamedAndLeftOutOfMediansAndRatios() {
        FakeSides fake = new FakeSides((key, n) -> {
            if (key.equals("jrdma write_bw 65536") && n == 1) {
                return Outcome.failed(Outcome.TIMEOUT);
            }
            if (key.equals("jrdma send_lat 8")) {
                return Outcome.failed("client exit 1: jrdma perf: error: a|b");
            }
            return Outcome.ok(key.startsWith("jrdma") ? 600 + 100 * n : 1000, 40.0);
        });
        Plan plan = Plan.issue().only(List.of("write_bw@65536:plain", "send_lat@8:plain"));
        List<Row> rows = new BenchRunner(plan, Budget.quick(), 3, fake.rdma(), fake.baselines(), QUIET).run();

        Row write = rows.get(0);
        assertThat(write.rdmaSummary()).isEqualTo(new Summary(2, 700, 600, 800));
        assertThat(write.ratio()).isEqualTo(new Summary(2, 0.7, 0.6, 0.8));
        assertThat(write.allocVerdict()).isEqualTo(Row.Verdict.NOT_MET);
        assertThat(rows.get(1).ratio()).isNull();
        assertThat(rows.get(1).targetVerdict()).isEqualTo(Row.Verdict.UNKNOWN);

        String md = Report.markdown(context(3, "fake jrdma"), rows);
        assertThat(md).contains("| write_bw 64 KiB | 700 [600–800] MiB/s (1 of 3 failed: timeout) | 40 |",
                "| send_lat 8 B | client exit 1: jrdma perf: error: a\\|b | – |",
                "- send_lat 8 B ≤ 1.30× UDP ping-pong: no figure — ?",
                "- zero bytes allocated per operation: at most 40 B/op (write_bw 64 KiB) — **no**");
    }

    @Test
    void withoutAJrdmaSideTheBaselinesStillRunAndTheTableSaysSo() {
        FakeSides fake = new FakeSides((key, n) -> Outcome.ok(2.0, 0.0));
        List<Row> rows = new BenchRunner(Plan.issue().only(List.of("send_lat")), Budget.quick(), 1, null, fake.baselines(), QUIET).run();

        assertThat(fake.calls).containsExactly("UDP ping-pong 8", "TCP ping-pong 8", "UDP ping-pong 4096", "TCP ping-pong 4096",
                "blocking UDP ping-pong 8", "mapped-file ping-pong 8", "UDP ping-pong 8");
        String md = Report.markdown(context(1, null), rows);
        assertThat(md).contains("- jrdma: not run (baselines only)", "| send_lat 8 B | – | – | UDP ping-pong: 2.00 µs | – | ≤ 1.30×, p99 ≤ 2.00×, p99.9 ≤ 3.00×, 0 B/op | ? |",
                "| send_lat 8 B -e | – | – | blocking UDP ping-pong: 2.00 µs | – | ≤ 1.50×, 0 B/op | ? |",
                "- zero bytes allocated per operation: not reported — ?");
    }

    @Test
    void theSharedMemoryShapesRunAgainstTheCopyAndTheMappedPingPongWithIssue18sTargets() {
        // write_bw 1 MiB on shm: 9000, 7000, 8000 MiB/s against a copy of 10000 each rep -> 0.9, 0.7, 0.8: median 0.8
        // write_bw 64 KiB on shm: 6000 against 20000 -> 0.3, no target but zero allocation
        // send_lat 8 B on shm: 0.45, 0.52, 0.49 µs -> median 0.49 meets ≤ 0.5; write_lat 8 B: 0.53 each -> not met
        double[] write1m = {9000, 7000, 8000};
        double[] sendLat = {0.45, 0.52, 0.49};
        FakeSides fake = new FakeSides((key, n) -> switch (key) {
            case "jrdma write_bw 1048576 shm" -> Outcome.ok(write1m[n], 0.0).withCpu(1.0, 2.0);
            case "MemorySegment.copy 1048576" -> Outcome.ok(10000, 0.0).withCpu(0.5, 2.0);
            case "jrdma write_bw 65536 shm" -> Outcome.ok(6000, 0.25);
            case "MemorySegment.copy 65536" -> Outcome.ok(20000, 0.0);
            case "jrdma send_lat 8 shm" -> Outcome.ok(sendLat[n], 0.0).withTails(0.8, 3.0);
            case "jrdma write_lat 8 shm" -> Outcome.ok(0.53, 0.0).withTails(0.9, 4.0);
            case "mapped-file ping-pong 8" -> Outcome.ok(0.40, 0.0).withTails(0.45, 1.4);
            case "UDP ping-pong 8" -> Outcome.ok(10.0, 0.0).withTails(14.0, 30.0);
            default -> throw new AssertionError(key);
        });
        Plan plan = Plan.issue().only(List.of("write_bw@65536:shm", "write_bw@1048576:shm", "send_lat@8:shm", "write_lat@8:shm"));
        assertThat(plan.shapes()).containsExactly(new Shape("write_bw", 65536, Variant.SHM), new Shape("write_bw", 1 << 20, Variant.SHM),
                new Shape("send_lat", 8, Variant.SHM), new Shape("write_lat", 8, Variant.SHM));
        assertThat(plan.shapes().get(1).id()).isEqualTo("write_bw@1048576:shm");
        assertThat(Plan.issue().only(List.of("write_bw@1048576:plain")).shapes()).containsExactly(new Shape("write_bw", 1 << 20));
        List<Row> rows = new BenchRunner(plan, Budget.quick(), 3, fake.rdma(), fake.baselines(), QUIET).run();

        assertThat(rows).hasSize(6);
        Row copy1m = rows.get(1);
        assertThat(copy1m.baseline()).isEqualTo(Baseline.SEGMENT_COPY);
        assertThat(copy1m.ratio().median()).isCloseTo(0.8, within(1e-12));
        assertThat(copy1m.verdict()).isEqualTo(Row.Verdict.MET);
        assertThat(copy1m.measured(Target.Measure.CPU_RATIO).median()).isEqualTo(2.0);
        assertThat(rows.get(0).verdict()).as("no ratio target at 64 KiB; its allocation is below 1 B/op").isEqualTo(Row.Verdict.MET);
        Row send = rows.get(2);
        assertThat(send.measured(Target.Measure.LATENCY_US).median()).isEqualTo(0.49);
        assertThat(send.targetVerdict()).isEqualTo(Row.Verdict.MET);
        assertThat(rows.get(4).targetVerdict()).isEqualTo(Row.Verdict.NOT_MET);
        assertThat(rows.get(3).targets()).as("the bound is on jrdma's own figure: once per shape").isEmpty();
        // the copy and the ping-pongs ran back to back with jrdma, alternating
        assertThat(fake.calls).containsSubsequence("MemorySegment.copy 1048576", "jrdma write_bw 1048576 shm",
                "jrdma write_bw 1048576 shm", "MemorySegment.copy 1048576");
        assertThat(fake.calls).containsSubsequence("mapped-file ping-pong 8", "UDP ping-pong 8", "jrdma send_lat 8 shm");

        String md = Report.markdown(context(3, "fake jrdma"), rows);
        assertThat(md).contains(
                "| write_bw 1 MiB --provider shm | 8000 [7000–9000] MiB/s | 0.00 | MemorySegment.copy: 10000 [10000–10000] MiB/s "
                        + "| 0.80× [0.70–0.90] | ≥ 0.70×, 0 B/op | yes |",
                "| write_bw 64 KiB --provider shm | 6000 [6000–6000] MiB/s | 0.25 | MemorySegment.copy: 20000 [20000–20000] MiB/s "
                        + "| 0.30× [0.30–0.30] | 0 B/op | yes |",
                "| send_lat 8 B --provider shm | 0.49 [0.45–0.52] µs | 0.00 | mapped-file ping-pong: 0.40 [0.40–0.40] µs |",
                "| write_lat 8 B --provider shm | 0.53 [0.53–0.53] µs | 0.00 | UDP ping-pong: 10.00 [10.00–10.00] µs |",
                "| send_lat 8 B --provider shm | mapped-file ping-pong | 0.49 / 0.80 / 3.00 | 0.40 / 0.45 / 1.40 |",
                "| write_bw 1 MiB --provider shm | 8 k | 0.500 | MemorySegment.copy | 0.250 | 2.00× [2.00–2.00] |",
                "--provider shm runs both perf processes on the shared-memory provider",
                "Targets (issue 18):",
                "- write_bw 1 MiB --provider shm ≥ 0.70× MemorySegment.copy: 0.80× — yes",
                "- send_lat 8 B --provider shm ≤ 0.50 µs: 0.49 µs — yes",
                "- write_lat 8 B --provider shm ≤ 0.50 µs: 0.53 µs — **no**",
                "- zero bytes allocated per operation: at most 0.25 B/op — yes");
        assertThat(md).as("only issue 18's shapes ran").doesNotContain("Targets (issue 15):");

        // beside an issue-15 shape, each issue has its own list and its own allocation verdict
        List<Row> both = new java.util.ArrayList<>(rows);
        Shape plain = new Shape("write_bw", 1 << 20);
        both.addFirst(new Row(plain, Baseline.TCP_STREAM, Plan.targetsFor(plain, Baseline.TCP_STREAM),
                List.of(Outcome.ok(900, 40.0)), List.of(Outcome.ok(1000, 0.0))));
        String mixed = Report.targets(both);
        assertThat(mixed.indexOf("Targets (issue 15):")).isLessThan(mixed.indexOf("Targets (issue 18):")).isNotNegative();
        assertThat(mixed).contains("- zero bytes allocated per operation: at most 40 B/op (write_bw 1 MiB) — **no**",
                "- zero bytes allocated per operation: at most 0.25 B/op — yes");
    }

    static Report.Context context(int reps, String rdma) {
        MachineInfo m = MachineInfo.now();
        return new Report.Context(m, m, reps, Budget.quick(), rdma, "fake baselines");
    }
}
