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
                "send_lat", "-s", "8", "-p", "4000", "-n", "100", "--warmup", "20", "--out_json", "--out_json_file", "/tmp/x.json", "--report-alloc",
                "--fake-mode", "ok", "127.0.0.1");
        assertThat(side.arguments(new Shape("read_bw", 64), TINY.withBwSeconds(5), 4000, json, false)).contains("-D", "5").doesNotContain("-n", "--warmup");
    }

    @Test
    void bandwidthComesFromTheClientsJsonFileAndAllocationIsTheLargerSide() {
        Outcome o = side("ok").run(new Shape("write_bw", 65536), TINY);
        assertThat(o).isEqualTo(Outcome.ok(FakePerf.BW_MIBS, FakePerf.SERVER_ALLOC));
        assertThat(Children.live()).isZero();
    }

    @Test
    void latencyIsFoundInStandardOutputWhenThereIsNoFile() {
        Outcome o = side("stdout").run(new Shape("send_lat", 8), TINY);
        assertThat(o).isEqualTo(Outcome.ok(FakePerf.LAT_US, FakePerf.SERVER_ALLOC));
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
}
