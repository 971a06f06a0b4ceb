package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.Verbs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code --idle-qps}: QPs at RTS beside the test's, paired locally, never exchanged. */
class PerfIdleQpsTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("idle");

    @Test
    void idleQpsArePairedToEachOtherAtRtsAndAnOddOneToItself() {
        assertThat(IdleQps.pairOf(0, 5)).isEqualTo(1);
        assertThat(IdleQps.pairOf(1, 5)).isZero();
        assertThat(IdleQps.pairOf(3, 5)).isEqualTo(2);
        assertThat(IdleQps.pairOf(4, 5)).isEqualTo(4);
        try (Context ctx = Verbs.device(DEVICE.name()).open(); ProtectionDomain pd = ctx.allocPd();
                IdleQps idle = IdleQps.open(ctx, pd, ctx.queryGid(QpConnector.PORT, 0), 0, Mtu.MTU_1024, 5)) {
            assertThat(idle.size()).isEqualTo(5);
            for (int i = 0; i < 5; i++) {
                assertThat(idle.qp(i).state()).isEqualTo(QpState.RTS);
                QpAttr a = idle.qp(i).query();
                assertThat(a.destQpNum()).as("QP %d's peer", i).isEqualTo(idle.qp(IdleQps.pairOf(i, 5)).qpNum());
            }
        }
        assertThat(IdleQps.open(null, null, null, 0, Mtu.MTU_1024, 0).size()).as("none: nothing made").isZero();
    }

    /**
     * Only the server holds idle QPs: the exchange is perftest's either way (the flag is local),
     * the run and its check pass, and its JSON says how many it held.
     */
    @Test
    void aSideWithIdleQpsRunsBesideAPeerWithout(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("server.json");
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(),
                List.of("--idle-qps", "40", "--out_json_file", json.toString()), List.of(),
                "send_bw", "-s", "4096", "-n", "200", "--check");
        assertThat(r.server().code()).as(r.toString()).isZero();
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().out()).contains(" jrdma: 40 idle RC QPs at RTS beside the test's (--idle-qps)")
                .contains("verified 200 messages received");
        assertThat(r.client().out()).doesNotContain("idle RC QPs");
        assertThat(Files.readString(json)).contains("\"idleQps\":40").containsPattern("\"setupCpuSeconds\":[0-9]+\\.[0-9]{3}");
    }

    @Test
    void aCountOutOfRangeIsAUsageError() {
        for (String n : List.of("-1", String.valueOf(IdleQps.MAX + 1))) {
            ToolRun run = ToolRun.of(List.of("perf", "write_bw", "-d", DEVICE.name(), "--idle-qps", n));
            assertThat(run.code()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).contains("--idle-qps must be 0.." + IdleQps.MAX + ", not " + n);
        }
    }
}
