package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CPU accounting's arithmetic, the targets' texts and bounds, and the baselines' lines read into outcomes. */
class CpuAndTargetsTest {
    @Test
    void reapedChildrensCpuIsCutimePlusCstimeCountedAfterTheCommandName() {
        // pid (comm with ") (" in it) state ppid ... utime=11 stime=12 cutime=250 cstime=75 ...
        String stat = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 100 200 0 0 11 12 250 75 20 0 30 0 123 456 789";
        assertThat(ChildCpu.parseReapedSeconds(stat)).isEqualTo(3.25);
        assertThatThrownBy(() -> ChildCpu.parseReapedSeconds("1 (x) S 1 2 3")).hasMessageContaining("a /proc stat line of 6 fields");
        // all the pair used (7.5 - 2.0 s), less what it had used when its traffic started (1.5 s)
        assertThat(ChildCpu.traffic(2.0, 7.5, 1.5)).isEqualTo(4.0);
        assertThat(ChildCpu.traffic(2.0, 7.5, Double.NaN)).as("start not seen: unknown").isNaN();
        // what each side said it had used when set up: perf's JSON, a baseline's ready and started lines
        assertThat(ProcessRdmaSide.setupCpu(PerfJson.parse("{\"setupCpuSeconds\":1.25}"), PerfJson.parse("{\"setup_cpu_seconds\":0.5}")))
                .isEqualTo(1.75);
        assertThat(ProcessRdmaSide.setupCpu(PerfJson.parse("{\"setupCpuSeconds\":1.25}"), PerfJson.parse("{\"bwAvgMiBs\":1}"))).isNaN();
        assertThat(ProcessRdmaSide.setupCpu(null, PerfJson.parse("{\"setupCpuSeconds\":1}"))).isNaN();
        assertThat(ProcessBaselineSide.setupCpu("{\"ready\":true,\"port\":5,\"cpuSeconds\":0.75}", "{\"started\":true,\"cpuSeconds\":0.5}"))
                .isEqualTo(1.25);
        assertThat(ProcessBaselineSide.setupCpu("{\"ready\":true,\"port\":5,\"cpuSeconds\":0.75}", null)).isNaN();
        assertThatThrownBy(() -> ChildCpu.parseReapedSeconds("no parentheses")).hasMessageContaining("not a /proc stat line");
        double now = ChildCpu.reapedSeconds();
        if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/self/stat"))) {
            assertThat(now).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void cpuPerGibIsTheSecondsOverTheGibAndUnknownWithoutEither() {
        assertThat(Outcome.ok(100, 0).withCpu(3.0, 1.5).cpuSecondsPerGiB()).isEqualTo(2.0);
        assertThat(Outcome.ok(100, 0).withCpu(3.0, Double.NaN).cpuSecondsPerGiB()).isNaN();
        assertThat(Outcome.ok(100, 0).withCpu(Double.NaN, 1.0).cpuSecondsPerGiB()).isNaN();
        assertThat(Outcome.ok(100, 0).withCpu(1.0, 0).cpuSecondsPerGiB()).isNaN();
        // the baseline's stream moves (count + warm-up) × size; a timed one its figure × (seconds + warm-up)
        Budget b = new Budget(1L << 30, 10, 1_000_000, 0, 100, null);
        assertThat(ProcessBaselineSide.gibMoved(Baseline.TCP_STREAM, 65536, b, 1)).as("16384 messages and 3276 more")
                .isEqualTo((16384.0 + 3276) * 65536 / (1 << 30));
        assertThat(ProcessBaselineSide.gibMoved(Baseline.TCP_STREAM, 65536, b.withBwSeconds(3), 1024)).isEqualTo(4.0);
        assertThat(ProcessBaselineSide.gibMoved(Baseline.UDP_PINGPONG, 8, b, 1)).isNaN();
    }

    @Test
    void theBlockingPingPongIsTheUdpOneWithItsFlag() {
        Budget b = new Budget(1L << 20, 10, 100, 0, 100, null);
        assertThat(ProcessBaselineSide.runArguments(Baseline.UDP_BLOCKING_PINGPONG, 8, b)).containsSubsequence("--blocking", "true");
        assertThat(ProcessBaselineSide.runArguments(Baseline.UDP_PINGPONG, 8, b)).doesNotContain("--blocking");
        assertThatThrownBy(() -> ProcessBaselineSide.runArguments(Baseline.JRDMA, 8, b)).hasMessageContaining("run by the jrdma side");
    }

    @Test
    void aPingPongsLineGivesItsTailsAndAStreamsNone() {
        Outcome.Ok ok = ProcessBaselineSide.outcome(2.5, Map.of("halfRttP50Us", 2.5, "halfRttP99Us", 6.0, "halfRttP999Us", 11.0,
                "allocBytesPerOp", 0.0));
        assertThat(ok).isEqualTo(new Outcome.Ok(2.5, 0.0, 6.0, 11.0, Double.NaN, Double.NaN));
        Outcome.Ok stream = ProcessBaselineSide.outcome(900, Map.of("mibPerSec", 900.0));
        assertThat(stream.p99Us()).isNaN();
        assertThat(stream.allocBytesPerOp()).isNaN();
    }

    @Test
    void targetsSayWhatTheyBoundAndJudgeTheMedian() {
        assertThat(Target.atLeast(0.8).text()).isEqualTo("≥ 0.80×");
        assertThat(Target.atMost(Target.Measure.P999_RATIO, 3).text()).isEqualTo("p99.9 ≤ 3.00×");
        assertThat(Target.atMost(Target.Measure.CPU_RATIO, 1.5).text()).isEqualTo("CPU/GiB ≤ 1.50×");
        assertThat(Target.atLeast(Target.Measure.MSG_RATE, 1).format(1.234)).isEqualTo("1.23 M msg/s");
        assertThat(Report.rate(1.5)).isEqualTo("1.50 M");
        assertThat(Report.rate(0.0123)).isEqualTo("12 k");
        assertThat(Report.rate(0.00048)).isEqualTo("480");
        assertThat(Target.atLeast(1.0).isMet(1.0)).isTrue();
        assertThat(Target.atMost(1.3).isMet(1.31)).isFalse();

        // message rate: 64 B at 61.035 MiB/s is 1.0 M msg/s; per rep 50, 61.1, 70 MiB/s -> the median, 61.1, meets 1 M
        Shape s = new Shape("send_bw", 64);
        Row r = new Row(s, Baseline.TCP_STREAM, Plan.targetsFor(s, Baseline.TCP_STREAM),
                List.of(Outcome.ok(50, 0), Outcome.ok(61.1, 0), Outcome.ok(70, 0)),
                List.of(Outcome.ok(40, 0), Outcome.ok(40, 0), Outcome.ok(40, 0)));
        Target rate = Target.atLeast(Target.Measure.MSG_RATE, 1.0);
        assertThat(r.targets()).contains(rate);
        assertThat(r.verdict(rate)).isEqualTo(Row.Verdict.MET);
        assertThat(r.verdict(Target.atLeast(1.0))).isEqualTo(Row.Verdict.MET);
        assertThat(r.verdict(Target.atMost(Target.Measure.CPU_RATIO, 1.5))).as("no CPU figures").isEqualTo(Row.Verdict.UNKNOWN);
        assertThat(r.targetVerdict()).isEqualTo(Row.Verdict.UNKNOWN);

        assertThat(Plan.targetsFor(new Shape("write_bw", 65536, Variant.Q16), Baseline.JRDMA)).containsExactly(Target.atLeast(0.9));
        assertThat(Plan.targetsFor(new Shape("send_lat", 4096), Baseline.UDP_PINGPONG)).isEmpty();
        assertThat(Plan.targetsFor(new Shape("send_lat", 8), Baseline.TCP_PINGPONG)).isEmpty();
        assertThat(Plan.baselinesFor(new Shape("write_bw", 65536, Variant.IDLE))).containsExactly(Baseline.JRDMA);
        assertThat(new Shape("write_bw", 65536, Variant.IDLE).reference()).isEqualTo(new Shape("write_bw", 65536));
        assertThat(new Shape("send_lat", 8, Variant.EVENTS).reference()).isNull();
        assertThat(new Shape("send_lat", 8, Variant.EVENTS).id()).isEqualTo("send_lat@8:events");
        Shape l16 = new Shape("write_bw", 64, Variant.L16);
        assertThat(l16.id()).isEqualTo("write_bw@64:l16");
        assertThat(l16.label()).isEqualTo("write_bw 64 B -l 16");
        assertThat(l16.reference()).as("compared with TCP streaming, as the plain run").isNull();
        assertThat(Plan.baselinesFor(l16)).containsExactly(Baseline.TCP_STREAM);
        assertThat(Plan.targetsFor(l16, Baseline.TCP_STREAM)).isEqualTo(Plan.targetsFor(new Shape("write_bw", 64), Baseline.TCP_STREAM));
    }

    @Test
    void issue18sTargetsBoundTheShmWriteAgainstTheCopyAndTheShmLatencyInMicroseconds() {
        Shape w1m = new Shape("write_bw", 1 << 20, Variant.SHM);
        assertThat(w1m.label()).isEqualTo("write_bw 1 MiB --provider shm");
        assertThat(w1m.reference()).as("against the copy, not jrdma's plain run").isNull();
        assertThat(Variant.SHM.perfArgs()).containsExactly("--provider", "shm");
        assertThat(Plan.baselinesFor(w1m)).containsExactly(Baseline.SEGMENT_COPY);
        assertThat(Plan.targetsFor(w1m, Baseline.SEGMENT_COPY)).containsExactly(Target.atLeast(0.7));
        assertThat(Plan.targetsFor(new Shape("write_bw", 65536, Variant.SHM), Baseline.SEGMENT_COPY)).isEmpty();
        Shape lat = new Shape("write_lat", 8, Variant.SHM);
        assertThat(Plan.baselinesFor(lat)).containsExactly(Baseline.MAPPED_PINGPONG, Baseline.UDP_PINGPONG);
        assertThat(Plan.targetsFor(lat, Baseline.MAPPED_PINGPONG)).containsExactly(Target.atMost(Target.Measure.LATENCY_US, 0.5));
        assertThat(Plan.targetsFor(lat, Baseline.UDP_PINGPONG)).isEmpty();
        assertThat(Plan.issueOf(lat)).isEqualTo(18);
        assertThat(Plan.issueOf(new Shape("write_lat", 8))).isEqualTo(15);

        Target halfRtt = Target.atMost(Target.Measure.LATENCY_US, 0.5);
        assertThat(halfRtt.text()).isEqualTo("≤ 0.50 µs");
        assertThat(halfRtt.measure().isRatio()).isFalse();
        // never rounded toward the bound: a miss never reads as the bound itself
        assertThat(halfRtt.format(0.503)).isEqualTo("0.51 µs");
        assertThat(halfRtt.format(0.5)).isEqualTo("0.50 µs");
        assertThat(halfRtt.format(0.499)).isEqualTo("0.50 µs");
        assertThat(halfRtt.isMet(0.503)).isFalse();
        assertThat(Target.atLeast(0.7).format(0.697)).isEqualTo("0.69×");
        assertThat(Target.atLeast(0.7).format(0.7)).isEqualTo("0.70×");
        assertThat(Target.atLeast(0.7).format(0.7049)).isEqualTo("0.70×");

        Row r = new Row(lat, Baseline.MAPPED_PINGPONG, Plan.targetsFor(lat, Baseline.MAPPED_PINGPONG),
                List.of(Outcome.ok(0.48, 0), Outcome.ok(0.51, 0), Outcome.ok(0.52, 0)),
                List.of(Outcome.ok(0.4, 0), Outcome.ok(0.4, 0), Outcome.ok(0.4, 0)));
        assertThat(r.measured(Target.Measure.LATENCY_US).median()).isEqualTo(0.51);
        assertThat(r.verdict(halfRtt)).as("the median over the reps, 0.51 µs").isEqualTo(Row.Verdict.NOT_MET);
        assertThat(new Row(w1m, Baseline.SEGMENT_COPY, List.of(), List.of(Outcome.ok(1, 0)), List.of(Outcome.ok(1, 0)))
                .measured(Target.Measure.LATENCY_US)).as("no latency for a bandwidth row").isNull();
    }

    @Test
    void theCopysLineGivesItsFigureAndAMappedServerIsFoundByItsFile() {
        String line = "{\"baseline\":\"segment_copy\",\"role\":\"local\",\"size\":1048576,\"messages\":2048,\"seconds\":0.0659634,"
                + "\"sourceSlots\":1,\"destinationSlots\":1,\"mibPerSec\":31047.5,\"msgRateMpps\":0.0310475,\"allocBytesPerOp\":0}";
        assertThat(ProcessBaselineSide.figure(Baseline.SEGMENT_COPY, Json.parseObject(line)))
                .isEqualTo(new Outcome.Ok(31047.5, 0.0, Double.NaN, Double.NaN, Double.NaN, Double.NaN));
        assertThat(ProcessBaselineSide.figure(Baseline.SEGMENT_COPY, Json.parseObject("{\"messages\":3}")))
                .isEqualTo(Outcome.failed("no mibPerSec in {messages=3.0}"));
        assertThat(Baseline.SEGMENT_COPY.singleProcess()).isTrue();
        assertThat(Baseline.MAPPED_PINGPONG.singleProcess()).isFalse();
        // the copy moves what perf's write_bw on shm does: (count + warm-up) × size, at memory speed 16 × the budget
        Budget b = new Budget(1L << 30, 10, 1_000_000, 0, 100, null);
        assertThat(ProcessBaselineSide.gibMoved(Baseline.SEGMENT_COPY, 1 << 20, b, 1)).isEqualTo((16384.0 + 3276) / 1024);
        assertThat(b.bwIters(1 << 20, true)).isEqualTo(16 * b.bwIters(1 << 20));
        assertThat(ProcessRdmaSide.iterations(new Shape("write_bw", 1 << 20, Variant.SHM), b))
                .as("perf's -n on shm: the copy's count").isEqualTo(16384);
        assertThat(ProcessBaselineSide.runArguments(Baseline.SEGMENT_COPY, 1 << 20, b))
                .containsExactly("--size", "1048576", "--count", "16384", "--warmup", "3276");

        assertThat(ProcessBaselineSide.peerArguments("{\"ready\":true,\"file\":\"/dev/shm/jrdma-bench-pingpong-1.map\",\"cpuSeconds\":0.2}"))
                .containsExactly("--file", "/dev/shm/jrdma-bench-pingpong-1.map");
        assertThat(ProcessBaselineSide.peerArguments("{\"ready\":true,\"port\":4791,\"cpuSeconds\":0.2}")).containsExactly("--port", "4791");
        assertThatThrownBy(() -> ProcessBaselineSide.peerArguments("{\"ready\":true}")).hasMessageContaining("neither a port nor a file");
    }
}
