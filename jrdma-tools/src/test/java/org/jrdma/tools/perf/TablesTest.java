package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.Test;

/** The banner and the result tables, character for character (ROCEV2-FACTS §6.4). */
class TablesTest {
    static PerfConfig config(PerfTest test, String host, boolean bidirectional, QpType type, AtomicType atomic) {
        return new PerfConfig(test, host, null, 18515, test.defaultSize(), false, false, test.defaultIters(), 0, 1,
                bidirectional, false, 0, null, 0, test.defaultTxDepth(), 512, 100, 16, type, atomic, false, (Path) null,
                false, false, Duration.ofSeconds(5), Duration.ofSeconds(5), 0, false);
    }

    @Test
    void resultLineIs87Dashes() {
        assertThat(Banner.RESULT_LINE).hasSize(87).matches("-+");
    }

    @Test
    void titles() {
        assertThat(Banner.title(config(PerfTest.WRITE_BW, "h", false, QpType.RC, AtomicType.FETCH_AND_ADD)))
                .isEqualTo("                    RDMA_Write BW Test");
        assertThat(Banner.title(config(PerfTest.SEND_BW, "h", true, QpType.RC, AtomicType.FETCH_AND_ADD)))
                .isEqualTo("                    Send Bidirectional BW Test");
        assertThat(Banner.title(config(PerfTest.ATOMIC_BW, "h", false, QpType.RC, AtomicType.FETCH_AND_ADD)))
                .isEqualTo("                    Atomic FETCH_AND_ADD BW Test");
        assertThat(Banner.title(config(PerfTest.READ_LAT, "h", false, QpType.RC, AtomicType.FETCH_AND_ADD)))
                .isEqualTo("                    RDMA_Read Latency Test");
        assertThat(Banner.title(config(PerfTest.ATOMIC_LAT, "h", false, QpType.RC, AtomicType.CMP_AND_SWAP)))
                .isEqualTo("                    Atomic CMP_AND_SWAP Latency Test");
    }

    @Test
    void theClientBannerOfWriteBw() {
        String banner = Banner.testInfo(config(PerfTest.WRITE_BW, "h", false, QpType.RC, AtomicType.FETCH_AND_ADD),
                "soft_lo", Mtu.MTU_1024, 512, 100, 0);
        assertThat(banner).isEqualTo(String.join("\n",
                "-".repeat(87),
                "                    RDMA_Write BW Test",
                " Dual-port       : OFF\t\tDevice         : soft_lo",
                " Number of qps   : 1\t\tTransport type : IB",
                " Connection type : RC\t\tUsing SRQ      : OFF",
                " TX depth        : 128",
                " CQ Moderation   : 100",
                " Mtu             : 1024[B]",
                " Link type       : Ethernet",
                " GID index       : 0",
                " Max inline data : 0[B]",
                " rdma_cm QPs\t : OFF",
                " Data ex. method : Ethernet",
                "-".repeat(87)));
    }

    @Test
    void theServerBannerOfSendBwHasRxDepthAndNoTxDepth() {
        String banner = Banner.testInfo(config(PerfTest.SEND_BW, null, false, QpType.UD, AtomicType.FETCH_AND_ADD),
                "soft_lo", Mtu.MTU_4096, 512, 100, 0);
        assertThat(banner).contains(" Connection type : UD\t\tUsing SRQ      : OFF\n", " RX depth        : 512\n")
                .doesNotContain("TX depth");
        String read = Banner.testInfo(config(PerfTest.READ_LAT, "h", false, QpType.RC, AtomicType.FETCH_AND_ADD),
                "soft_lo", Mtu.MTU_4096, 512, 100, 0);
        assertThat(read).contains(" TX depth        : 1\n", " Outstand reads  : 16\n").doesNotContain("CQ Moderation", "Max inline");
    }

    @Test
    void bandwidthHeaderAndRowsAsPerftestPrintsThem() {
        assertThat(BwTable.header(false))
                .isEqualTo(" #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]");
        assertThat(BwTable.header(true))
                .isEqualTo(" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]");
        // A captured ib_write_bw --report_gbits row (%-7.2lf pads 193.21 to seven characters).
        assertThat(BwTable.row(new BwReport(65536, 5000, 194.39, 193.21, 0.368459), true))
                .isEqualTo(" 65536      5000             194.39             193.21 \t\t   0.368459");
        assertThat(BwTable.row(new BwReport(65536, 5000, 11030.78, 11030.5, 0.176491), false))
                .isEqualTo(" 65536      5000             11030.78            11030.50\t\t   0.176491");
        assertThat(BwTable.row(new BwReport(2, 50000, 0, 10.43, 5.467546), false))
                .isEqualTo(" 2          50000            0.00               10.43  \t\t   5.467546");
        // Below 0.1 Gb/s perftest switches to REPORT_FMT_EXT, six decimals.
        assertThat(BwTable.row(new BwReport(2, 1000, 0.05, 0.04, 2.5), true))
                .isEqualTo(" 2          1000           0.050000            0.040000            2.500000");
    }

    @Test
    void numbersRoundAsCDoes() {
        assertThat(CFormat.fixed(2.125, 2)).isEqualTo("2.12"); // an exact tie goes to even
        assertThat(CFormat.fixed(2.375, 2)).isEqualTo("2.38");
        assertThat(CFormat.fixed(1.005, 2)).isEqualTo("1.00"); // really 1.00499999999999989…
        assertThat(CFormat.fixed(0.368459, 6)).isEqualTo("0.368459");
        assertThat(CFormat.fixedLeft(3.5, 7, 2)).isEqualTo("3.50   ");
        assertThat(CFormat.fixedLeft(11030.78, 7, 2)).isEqualTo("11030.78");
    }

    @Test
    void latencyHeaderAndRow() {
        assertThat(LatTable.header()).isEqualTo(" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    "
                + "t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ");
        LatencyStats s = new LatencyStats(2, 1000, 1.5, 9.25, 2.0, 2.125, 0.5, 3.0, 8.0, 0);
        assertThat(LatTable.row(s))
                .isEqualTo(" 2       1000          1.50           9.25         2.00     \t       2.12        \t0.50   \t\t3.00    \t\t8.00   ");
        assertThat(LatTable.durationHeader()).isEqualTo(" #bytes        #iterations       t_avg[usec]    tps average");
    }
}
