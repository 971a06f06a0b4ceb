package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChildTest {
    private static List<String> java(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(ProcessBaselineSide.thisJava(), "-cp", ProcessBaselineSide.thisClassPath() + java.io.File.pathSeparator + TestClasses.location()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void aChildPastItsDeadlineIsKilledWithItsDescendants() throws Exception {
        // a perf server that never gets a client: it waits for ever
        Child c = Child.start("sleeper", java(FakePerf.class.getName(), "write_bw", "-s", "8", "-p",
                String.valueOf(PortWatch.freeTcpPort()), "-n", "1", "--out_json", "--report-alloc", "--fake-mode", "hang"), Set.of());
        long pid = c.pid();
        assertThat(c.awaitLine(l -> l.contains("Waiting for client"), System.nanoTime() + 30_000_000_000L)).isPresent();
        assertThat(c.awaitExit(System.nanoTime() + 200_000_000L)).isFalse();
        assertThat(Children.live()).isEqualTo(1);

        c.close();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(Children.live()).isZero();
    }

    @Test
    void awaitLineGivesUpWhenTheChildExitsWithoutPrintingIt() throws Exception {
        try (Child c = Child.start("exits", java(FakePerf.class.getName(), "write_bw"), Set.of())) {
            assertThat(c.awaitLine(l -> l.contains("never"), System.nanoTime() + 30_000_000_000L)).isEmpty();
            assertThat(c.awaitExit(System.nanoTime() + 30_000_000_000L)).isTrue();
            assertThat(c.exitValue()).isEqualTo(2);
            assertThat(c.exitReason()).isEqualTo("exit 2: jrdma perf: missing -s, -p, -n/-D, --out_json or --report-alloc");
        }
    }

    @Test
    void theChildRunsWithoutTheVariablesItIsToldToUnset() throws Exception {
        assertThat(ProcessRdmaSide.UNSET_ENV).contains("JRDMA_SOFT_DEVICES", "JRDMA_IMPAIR", "JRDMA_PCAP_DIR");
        try (Child c = Child.start("env", List.of("env"), Set.of("HOME"))) {
            assertThat(c.awaitExit(System.nanoTime() + 30_000_000_000L)).isTrue();
            assertThat(c.stdout()).isNotEmpty().noneMatch(l -> l.startsWith("HOME="));
        }
    }
}
