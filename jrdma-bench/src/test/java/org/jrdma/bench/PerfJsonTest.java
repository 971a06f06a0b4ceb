package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PerfJsonTest {
    private static final Shape WRITE_64K = new Shape("write_bw", 65536);
    private static final Shape SEND_LAT_8 = new Shape("send_lat", 8);

    @Test
    void readsTheBandwidthObjectOfJrdmaPerf() {
        PerfResult r = PerfJson.parse("{\"test\":\"write_bw\",\"size\":65536,\"iterations\":5000,\"bwPeakMiBs\":2100.5,"
                + "\"bwAvgMiBs\":1980.25,\"msgRateMpps\":0.0317,\"allocBytesPerOp\":0.0}");
        assertThat(r.test()).isEqualTo("write_bw");
        assertThat(r.figureFor(WRITE_64K)).isEqualTo(1980.25);
        assertThat(r.get("bwPeakMiBs")).isEqualTo(2100.5);
        assertThat(r.get("iterations")).isEqualTo(5000);
        assertThat(r.get("allocBytesPerOp")).isZero();
    }

    @Test
    void readsTheLatencyObjectWhateverTheKeyOrderAndSpacing() {
        PerfResult r = PerfJson.parse("""
                {
                  "allocBytesPerOp" : 0.125, "p999Us": 30.1, "p99Us": 9.9,
                  "tStdevUs": 1.1, "tAvgUs": 4.2, "tTypicalUs": 3.75, "tMaxUs": 80, "tMinUs": 3.1,
                  "iterations": 1000, "size": 8, "test": "send_lat"
                }
                """);
        assertThat(r.figureFor(SEND_LAT_8)).isEqualTo(3.75);
        assertThat(r.get("p99Us")).isEqualTo(9.9);
        assertThat(r.get("allocBytesPerOp")).isEqualTo(0.125);
    }

    @Test
    void toleratesOtherSpellingsOfTheKeys() {
        PerfResult snake = PerfJson.parse("{\"test\":\"send_lat\",\"msg_size\":8,\"t_typical_us\":2.5,\"alloc_bytes_per_op\":0}");
        assertThat(snake.figureFor(SEND_LAT_8)).isEqualTo(2.5);
        assertThat(snake.get("allocBytesPerOp")).isZero();
        // perftest's own --out_json nests its figures under "results", with its own names and units
        PerfResult perftest = PerfJson.parse("{\"test_info\":{\"Test\":\"RDMA_Write BW Test\"},"
                + "\"results\":{\"MsgSize\":65536,\"n_iterations\":5000,\"BW_peak\":1200.0,\"BW_average\":1100.0,\"MsgRate\":0.0176}}");
        assertThat(perftest.figureFor(WRITE_64K)).isEqualTo(1100.0);
        assertThat(perftest.get("msgRateMpps")).isEqualTo(0.0176);
        PerfResult header = PerfJson.parse("{\"BW average[MB/sec]\":950.5,\"#bytes\":65536}");
        assertThat(header.figureFor(WRITE_64K)).isEqualTo(950.5);
        PerfResult gbits = PerfJson.parse("{\"BW_average[Gb/sec]\":8.388608}");
        assertThat(gbits.figureFor(WRITE_64K)).isCloseTo(1000.0, within(1e-9));
    }

    @Test
    void readsFiguresFromAResultsArrayWithTheirUnitBeside() {
        String bw = "{\"tool\":\"jrdma perf\",\"test\":\"write_bw\",\"role\":\"client\",\"iters\":5000,\"bwUnit\":\"%s\","
                + "\"results\":[{\"bytes\":65536,\"iterations\":5000,\"bwPeak\":2.2,\"bwAverage\":%s,\"msgRateMpps\":0.03,"
                + "\"allocBytesPerOp\":0.0}],\"check\":{\"verified\":0,\"failed\":0}}";
        assertThat(PerfJson.parse(bw.formatted("MiB/sec", "1234.5")).figureFor(WRITE_64K)).isEqualTo(1234.5);
        assertThat(PerfJson.parse(bw.formatted("Gb/sec", "8.388608")).figureFor(WRITE_64K)).isCloseTo(1000.0, within(1e-9));
        PerfResult lat = PerfJson.parse("{\"test\":\"send_lat\",\"results\":[{\"bytes\":8,\"iterations\":1000,\"tMinUsec\":2.1,"
                + "\"tMaxUsec\":50.0,\"tTypicalUsec\":2.9,\"tAvgUsec\":3.2,\"tStdevUsec\":0.7,\"p99Usec\":6.0,\"p999Usec\":20.0,"
                + "\"allocBytesPerOp\":0.0}]}");
        assertThat(lat.figureFor(SEND_LAT_8)).isEqualTo(2.9);
        assertThat(lat.get("p99Us")).isEqualTo(6.0);
        assertThat(lat.get("p999Us")).isEqualTo(20.0);
        assertThat(lat.get("iterations")).isEqualTo(1000);
    }

    @Test
    void findsTheObjectInPerftestStyleOutput() {
        String out = """
                ************************************
                * Waiting for client to connect... *
                ************************************
                 #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
                 65536      5000             2000.00            1900.00              0.030400
                {"test":"write_bw",
                 "size":65536, "bwAvgMiBs":1900.0,
                 "allocBytesPerOp":0}
                ---------------------------------------------------------------------------------------
                """;
        assertThat(PerfJson.findIn(out).figureFor(WRITE_64K)).isEqualTo(1900.0);
        // a write_bw server has no figure, only its allocation
        assertThat(PerfJson.findIn("* Waiting for client to connect... *\n{\"test\":\"write_bw\",\"allocBytesPerOp\":2.5}\n")
                .get("allocBytesPerOp")).isEqualTo(2.5);
    }

    @Test
    void failsClearlyOnGarbageMissingFiguresAndTheWrongRun() {
        assertThatThrownBy(() -> PerfJson.parse("Couldn't connect to 127.0.0.1:18515"))
                .isInstanceOf(Json.JsonException.class).hasMessageContaining("expected '{' at offset 0");
        assertThatThrownBy(() -> PerfJson.findIn("Couldn't connect to 127.0.0.1:18515\n{ not json\n{\"other\":1}\n"))
                .hasMessageContaining("no jrdma perf JSON object");
        assertThatThrownBy(() -> PerfJson.parse("{\"test\":\"write_bw\",\"size\":65536}").figureFor(WRITE_64K))
                .hasMessageContaining("no bwAvgMiBs").hasMessageContaining("keys: ");
        assertThatThrownBy(() -> PerfJson.parse("{\"test\":\"send_bw\",\"bwAvgMiBs\":1}").figureFor(WRITE_64K))
                .hasMessageContaining("reported test send_bw, expected write_bw");
        assertThatThrownBy(() -> PerfJson.parse("{\"size\":4096,\"bwAvgMiBs\":1}").figureFor(WRITE_64K))
                .hasMessageContaining("reported size 4096, expected 65536");
        assertThatThrownBy(() -> PerfJson.parse("{\"bwAvgMiBs\":\"fast\"}"))
                .hasMessageContaining("\"bwavgmibs\" should be a number");
    }
}
