package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The process side of jrdma, against {@link FakePerf} standing in for {@code jrdma perf}. */
class ProcessRdmaSideTest {
    private static final Budget TINY = new Budget(1 << 20, 10, 100, 0, 100, Duration.ofSeconds(60));

    private static ProcessRdmaSide side(String mode) {
        List<String> cmd = List.of(ProcessBaselineSide.thisJava(), "-cp", ProcessBaselineSide.thisClassPath() + java.io.File.pathSeparator + TestClasses.location(), FakePerf.class.getName());
        return new ProcessRdmaSide(cmd, List.of("--fake-mode", mode), "fake perf " + mode);
    }

    @Test
    void passesPerftestsFlagsAndTheHostToTheClientOnly() {
        ProcessRdmaSide side = side("ok");
        Path json = Path.of("/tmp/x.json");
        assertThat(side.arguments(new Shape("write_bw", 65536), TINY, 4000, json, false)).containsExactly(
                "write_bw", "-s", "65536", "-p", "4000", "-n", "16", "--warmup", "3", "--out_json", "--out_json_file", "/tmp/x.json", "--report-alloc",
                "--fake-mode", "ok");
        assertThat(side.arguments(new Shape("send_lat", 8), TINY.withBwSeconds(5), 4000, json, true)).containsExactly(
                "send_lat", "-s", "8", "-p", "4000", "-n", "100", "--warmup", "600", "--out_json", "--out_json_file", "/tmp/x.json", "--report-alloc",
                "--fake-mode", "ok", "127.0.0.1");
        assertThat(side.arguments(new Shape("read_bw", 64), TINY.withBwSeconds(5), 4000, json, false)).contains("-D", "5").doesNotContain("-n", "--warmup");
        // a variant's flags come before the extra ones; -q 16 shares the run's messages among its QPs (-n is per QP)
        assertThat(side.arguments(new Shape("write_bw", 65536, Variant.Q16), new Budget(64L << 20, 10, 10_000, 0, 100, null), 4000, json, true))
                .containsExactly("write_bw", "-s", "65536", "-p", "4000", "-n", "64", "--warmup", "12", "--out_json", "--out_json_file",
                        "/tmp/x.json", "--report-alloc", "-q", "16", "--fake-mode", "ok", "127.0.0.1");
        assertThat(side.arguments(new Shape("write_bw", 65536, Variant.IDLE), TINY, 4000, json, false))
                .containsSubsequence("-n", "16", "--warmup", "3", "--report-alloc", "--idle-qps", "1000", "--fake-mode");
        // -l 16: -n a multiple of 16, as perf requires (100 messages -> 96)
        assertThat(side.arguments(new Shape("write_bw", 64, Variant.L16), TINY, 4000, json, false))
                .containsSubsequence("-n", "96", "--warmup", "19", "--report-alloc", "-l", "16", "--fake-mode");
        assertThat(side.arguments(new Shape("write_bw", 64, Variant.L16), new Budget(1 << 20, 10, 10, 0, 100, null), 4000, json, false))
                .as("never below one list").containsSubsequence("-n", "16");
        assertThat(side.arguments(new Shape("send_lat", 8, Variant.EVENTS), TINY, 4000, json, false))
                .containsSubsequence("--report-alloc", "-e", "--fake-mode");
        assertThat(ProcessRdmaSide.gibMoved(new Shape("write_bw", 65536, Variant.Q16), new Budget(64L << 20, 10, 10_000, 0, 100, null), 1))
                .as("(64 + 12) × 16 QPs × 64 KiB").isEqualTo(76.0 * 16 * 65536 / (1 << 30));
        assertThat(ProcessRdmaSide.gibMoved(new Shape("write_bw", 4096), TINY.withBwSeconds(5), 2048.0)).as("2 GiB/s for 5 s").isEqualTo(10.0);
    }

    @Test
    void bandwidthComesFromTheClientsJsonFileAndAllocationIsTheLargerSide() {
        Outcome o = side("ok").run(new Shape("write_bw", 65536), TINY);
        Outcome.Ok ok = (Outcome.Ok) o;
        assertThat(ok.value()).isEqualTo(FakePerf.BW_MIBS);
        assertThat(ok.allocBytesPerOp()).isEqualTo(FakePerf.SERVER_ALLOC);
        assertThat(ok.p99Us()).as("no tails for bandwidth").isNaN();
        // 16 messages and a warm-up of 3, of 64 KiB: what the two processes' CPU is divided by
        assertThat(ok.gibMoved()).isEqualTo(19.0 * 65536 / (1 << 30));
        // the pair's CPU after both said their set-up's (setupCpuSeconds): the fake's exit, a few ticks at most
        assertThat(ok.cpuSeconds()).as("CPU after the set-up").isNotNaN().isBetween(-0.05, 0.5);
        assertThat(Children.live()).isZero();
    }

    @Test
    void latencyIsFoundInStandardOutputWhenThereIsNoFile() {
        Outcome.Ok o = (Outcome.Ok) side("stdout").run(new Shape("send_lat", 8), TINY);
        assertThat(o.value()).isEqualTo(FakePerf.LAT_US);
        assertThat(o.allocBytesPerOp()).isEqualTo(FakePerf.SERVER_ALLOC);
        assertThat(o.p99Us()).isEqualTo(FakePerf.P99_US);
        assertThat(o.p999Us()).isEqualTo(FakePerf.P999_US);
        assertThat(o.gibMoved()).isNaN();
    }

    @Test
    void aFailingSideIsReportedWithItsError() {
        Outcome o = side("fail").run(new Shape("send_bw", 4096), TINY);
        assertThat(o).isEqualTo(Outcome.failed("client exit 1: jrdma perf: error: cannot open device soft_lo"));
        assertThat(Children.live()).isZero();
    }

    @Test
    void aHungPairIsKilledAtTheDeadlineAndReportedAsTimeout() {
        List<Long> pids = new ArrayList<>();
        ProcessRdmaSide side = side("hang");
        long t0 = System.nanoTime();
        Outcome o = side.run(new Shape("write_lat", 8), TINY.withTimeout(Duration.ofSeconds(4)));
        long seconds = (System.nanoTime() - t0) / 1_000_000_000L;

        assertThat(o).isEqualTo(Outcome.failed(Outcome.TIMEOUT));
        assertThat(seconds).as("returned soon after the 4 s deadline, not hung").isLessThan(40);
        assertThat(Children.live()).isZero();
        ProcessHandle.current().children().filter(p -> p.info().commandLine().orElse("").contains(FakePerf.class.getName()))
                .forEach(p -> pids.add(p.pid()));
        assertThat(pids).as("no FakePerf process left").isEmpty();
    }

    @Test
    void aLatencyRunWarmsUpSixTimesItsRoundTripsUpToThreeHundredThousand() {
        assertThat(Budget.standard().latWarmup()).isEqualTo(300_000);
        assertThat(Budget.quick().latWarmup()).isEqualTo(30_000);
        assertThat(TINY.latWarmup()).isEqualTo(600);
        assertThat(Budget.standard().withLatIters(5_000_000).latWarmup()).as("a fifth when that is more").isEqualTo(1_000_000);
    }
}
