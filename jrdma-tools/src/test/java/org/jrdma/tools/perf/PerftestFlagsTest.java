package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.testkit.RecordingQp;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** perftest's -u -S -T -N -H -z --perform_warm_up --run_infinitely: parsed, refused, or doing what perftest's do. */
class PerftestFlagsTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("flags");

    private static final KeyMessage PEER = new KeyMessage(0x21, 5, 0xABCDE, 0x123456, 0x1234, 0x7f0000001000L,
            Gid.fromHex("00000000000000000000ffff7f4d0102"), 0);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "write_bw -u 32 | --qp-timeout must be 0..31",
            "write_bw -S 16 | --sl must be 0..15",
            "write_bw -T 32 | --tos is only valid for rdma_cm based QPs (-R)",
            "write_bw -T 300 -R | --tos must be 0..255",
            "write_bw -T 32 -R | --tos is not supported by jrdma: its connection manager has no rdma_set_option(RDMA_OPTION_ID_TOS)",
            "write_bw -R -u 20 | --qp-timeout and --sl are not supported by jrdma with -R",
            "write_lat -N | --noPeak is for bandwidth tests",
            "write_bw -H | --report-histogram is for latency tests",
            "write_lat -H -D 2 | --report-histogram needs -n",
            "write_bw -z -R | --comm_rdma_cm and --rdma_cm",
            "write_bw -z -c UC | UC is not supported in librdmacm",
            "write_lat --run_infinitely | run_infinitely exists only in BW tests",
            "send_bw --run_infinitely | --run_infinitely is not supported by jrdma for send_bw",
            "write_bw --run_infinitely -b | --run_infinitely is not supported by jrdma with --bidirectional",
            "read_bw --run_infinitely -a | --run_infinitely and --all do not go together"})
    void refusedWithAReason(String args, String message) {
        List<String> a = new java.util.ArrayList<>(List.of("perf"));
        a.addAll(List.of(args.split(" ")));
        a.addAll(List.of("-d", DEVICE.name()));
        ToolRun r = ToolRun.of(a);
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains(message);
    }

    @Test
    void parsedIntoTheConfiguration() {
        PerfConfig.Extras none = config("write_bw").extras();
        assertThat(none).isEqualTo(PerfConfig.Extras.NONE);
        assertThat(none.qpTimeout()).as("perftest's DEF_QP_TIME").isEqualTo(14);
        PerfConfig.Extras x = config("write_bw", "-u", "20", "-S", "3", "-N", "--perform_warm_up", "-z").extras();
        assertThat(x).isEqualTo(new PerfConfig.Extras(20, 3, true, false, true, true, false));
        assertThat(config("write_lat", "--report-histogram").extras().histogram()).isTrue();
        assertThat(config("write_lat", "--report-histogrm").extras().histogram()).as("perftest's own spelling").isTrue();
        PerfConfig inf = config("write_bw", "--run_infinitely");
        assertThat(inf.extras().runInfinitely()).isTrue();
        assertThat(inf.durationSeconds()).as("perftest's DEF_DURATION").isEqualTo(5);
        assertThat(config("write_bw", "--run_infinitely", "-D", "2").durationSeconds()).isEqualTo(2);
    }

    /** -S is the address vector's SL (RTR and UD's address handles), -u RTS's timeout. */
    @Test
    void slAndTimeoutReachTheQp() {
        RecordingQp rec = new RecordingQp(QpType.RC, 0x42);
        QpConnector.toInit(rec.qp());
        QpConnector.toRtr(rec.qp(), Mtu.MTU_1024, PEER, 0, 1, 5);
        QpConnector.toRts(rec.qp(), 7, 1, 19);
        QpAttr rtr = rec.modifies().get(1).attr();
        QpAttr rts = rec.modifies().get(2).attr();
        assertThat(rtr.ahAttr().sl).isEqualTo(5);
        assertThat(rts.timeout()).isEqualTo(19);
        assertThat(QpConnector.addressVector(PEER, 0, 9).sl).isEqualTo(9);
    }

    @Test
    void timeoutAndSlRunEndToEnd() throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_bw", "-n", "30", "-s", "4096", "-u", "20", "-S", "3", "--check");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.client().out()).contains("verified");
    }

    @Test
    void noPeakReadsZero() throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_bw", "-n", "30", "-s", "4096", "-N");
        assertThat(r.client().code()).as(r.toString()).isZero();
        Matcher row = Pattern.compile("\n 4096 +30 +(\\S+) +(\\S+)").matcher(r.client().out());
        assertThat(row.find()).as(r.client().out()).isTrue();
        assertThat(row.group(1)).isEqualTo("0.00");
        assertThat(Double.parseDouble(row.group(2))).isPositive();
    }

    /** print_report_lat's -H: "#, usec", the sorted samples without the two highest, RESULT_LINE, the header, the row. */
    @Test
    void histogramPrintsEverySortedSample() throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_lat", "-n", "20", "-H");
        assertThat(r.client().code()).as(r.toString()).isZero();
        String out = r.client().out();
        int start = out.indexOf("#, usec\n");
        assertThat(start).as(out).isPositive();
        List<String> lines = out.substring(start).lines().toList();
        double previous = -1;
        for (int i = 1; i <= 17; i++) { // 20 iterations: 19 deltas, 2 dropped
            String[] parts = lines.get(i).split(", ");
            assertThat(parts[0]).isEqualTo(String.valueOf(i));
            double t = Double.parseDouble(parts[1]);
            assertThat(t).isGreaterThanOrEqualTo(previous);
            previous = t;
        }
        assertThat(lines.get(18)).isEqualTo(Banner.RESULT_LINE);
        assertThat(lines.get(19)).isEqualTo(LatTable.header());
        assertThat(lines.get(20)).startsWith(" 2       20 ");
    }

    /** perform_warm_up: the sender's extra, unmeasured WRITEs; the peer needs no flag (one-sided). */
    @Test
    void performWarmUpSendsOneQueueMoreUnreported() throws Exception {
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of(), List.of("--perform_warm_up"),
                "write_bw", "-n", "40", "-s", "4096", "-t", "16");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        assertThat(r.client().out()).containsPattern("\n 4096 +40 ");
    }

    @Test
    void commRdmaCmExchangesOverTheCm() throws Exception {
        PerfPair.Result r = PerfPair.runTo(DEVICE.address(), DEVICE.name(), "write_bw", "-z", "-n", "30", "-s", "4096", "--check");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        assertThat(r.client().out()).contains(" rdma_cm QPs\t : OFF\n", " Data ex. method : rdma_cm\n");
    }

    @Test
    void gFormatIsCs() {
        assertThat(CFormat.g(1.5)).isEqualTo("1.5");
        assertThat(CFormat.g(12.3456789)).isEqualTo("12.3457");
        assertThat(CFormat.g(100)).isEqualTo("100");
        assertThat(CFormat.g(0.0001)).isEqualTo("0.0001");
        assertThat(CFormat.g(0.00001234)).isEqualTo("1.234e-05");
        assertThat(CFormat.g(1234567)).isEqualTo("1.23457e+06");
        assertThat(CFormat.g(0)).isEqualTo("0");
    }

    private static PerfConfig config(String... args) {
        PerfCommand cmd = new PerfCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd.toConfig();
    }
}
