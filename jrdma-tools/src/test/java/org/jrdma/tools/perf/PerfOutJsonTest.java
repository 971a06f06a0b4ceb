package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jrdma.tools.MiniJson;
import org.jrdma.tools.OwnDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --out_json} writes perftest's file: its "test_info" and "results" keys, nesting and
 * number formats (perftest_parameters.c write_test_info_to_file / write_bw_report_to_file /
 * write_report_lat_to_file), so a script reading ib_write_bw's file reads jrdma's.
 */
class PerfOutJsonTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("json");

    @Test
    void bandwidthBothRolesInPerftestsSchema(@TempDir Path dir) throws Exception {
        Path server = dir.resolve("server.json");
        Path client = dir.resolve("client.json");
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(),
                List.of("--out_json", "--out_json_file", server.toString()), List.of("--out_json_file=" + client),
                "write_bw", "-n", "40", "-s", "4K", "--report-alloc");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();

        String text = Files.readString(client, StandardCharsets.UTF_8);
        assertThat(text).startsWith("{\n\"test_info\": {\n\"test\": \"RDMA_Write_BW_Test\",\n").endsWith("\n}\n");
        Map<String, Object> doc = MiniJson.object(text);
        assertThat(doc.keySet()).containsExactly("test_info", "results", "jrdma");
        Map<String, Object> info = map(doc.get("test_info"));
        assertThat(info).containsEntry("test", "RDMA_Write_BW_Test").containsEntry("Dual_port", "OFF")
                .containsEntry("Device", DEVICE.name()).containsEntry("Transport_type", "IB")
                .containsEntry("Connection_type", "RC").containsEntry("Using_SRQ", "OFF").containsEntry("Link_type", "Ethernet")
                .containsEntry("rdma_cm_QPs", "OFF").containsEntry("Data_ex_method", "Ethernet")
                .containsEntry("Number_of_qps", new BigDecimal("1")).containsEntry("Max_inline_data", new BigDecimal("0"))
                .containsEntry("GID_index", new BigDecimal("0"));
        // the same figures as the banner printed
        assertThat(r.client().out()).contains(" TX depth        : " + info.get("TX_depth") + "\n",
                " CQ Moderation   : " + info.get("CQ_Moderation") + "\n", " Mtu             : " + info.get("Mtu") + "[B]\n");
        assertThat(info.get("Mtu")).isIn(new BigDecimal("1024"), new BigDecimal("2048"), new BigDecimal("4096"));

        Map<String, Object> results = map(doc.get("results"));
        assertThat(results.keySet()).containsExactly("MsgSize", "n_iterations", "BW_peak", "BW_average", "MsgRate");
        assertThat(results).containsEntry("MsgSize", new BigDecimal("4096")).containsEntry("n_iterations", new BigDecimal("40"));
        assertThat(((BigDecimal) results.get("BW_peak")).scale()).isEqualTo(2);
        assertThat(((BigDecimal) results.get("BW_average")).scale()).isEqualTo(2);
        assertThat(((BigDecimal) results.get("MsgRate")).scale()).isEqualTo(6);
        assertThat((BigDecimal) results.get("BW_average")).isPositive();
        // the printed row and the file agree
        assertThat(r.client().out()).contains(" " + results.get("BW_average") + " ");

        Map<String, Object> jrdma = map(doc.get("jrdma"));
        assertThat(jrdma).containsEntry("role", "client").containsEntry("peerVersion", "6.06").containsKey("allocBytesPerOp")
                .containsKey("setupCpuSeconds");
        assertThat((List<?>) jrdma.get("sizes")).hasSize(1);

        Map<String, Object> serverInfo = map(MiniJson.object(Files.readString(server, StandardCharsets.UTF_8)).get("test_info"));
        assertThat(serverInfo).doesNotContainKey("TX_depth"); // perftest: only a client or a bidirectional side
        assertThat(map(MiniJson.object(Files.readString(server)).get("jrdma"))).containsEntry("role", "server");
    }

    @Test
    void latencyKeys(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("lat.json");
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of(),
                List.of("--out_json_file", json.toString()), "send_lat", "-n", "30");
        assertThat(r.client().code()).as(r.toString()).isZero();
        Map<String, Object> doc = MiniJson.object(Files.readString(json));
        Map<String, Object> info = map(doc.get("test_info"));
        assertThat(info).containsEntry("test", "Send_Latency_Test").doesNotContainKey("CQ_Moderation");
        Map<String, Object> results = map(doc.get("results"));
        assertThat(results.keySet()).containsExactly("MsgSize", "n_iterations", "t_min", "t_max", "t_typical", "t_avg", "t_stdev",
                "percentile_99", "percentile_99.9");
        assertThat(results).containsEntry("MsgSize", new BigDecimal("2")).containsEntry("n_iterations", new BigDecimal("30"));
        for (String k : List.of("t_min", "t_max", "t_typical", "t_avg", "t_stdev", "percentile_99", "percentile_99.9")) {
            assertThat(((BigDecimal) results.get(k)).scale()).as(k).isEqualTo(2);
        }
        assertThat((BigDecimal) results.get("t_min")).isLessThanOrEqualTo((BigDecimal) results.get("t_max"));
    }

    @Test
    void atomicTestName(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("a.json");
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICE.name(), DEVICE.name(), List.of(),
                List.of("--out_json_file", json.toString()), "atomic_bw", "-n", "20", "-A", "CMP_AND_SWAP");
        assertThat(r.client().code()).as(r.toString()).isZero();
        Map<String, Object> info = map(MiniJson.object(Files.readString(json)).get("test_info"));
        assertThat(info).containsEntry("test", "Atomic_CMP_AND_SWAP_BW_Test").containsKey("Outstand_reads")
                .doesNotContainKey("Max_inline_data");
    }

    @Test
    void outJsonAloneWritesPerftestsFileName() {
        PerfCommand cmd = new PerfCommand();
        new CommandLine(cmd).parseArgs("write_bw", "--out_json");
        assertThat(cmd.toConfig().jsonFile()).isEqualTo(Path.of("perftest_out.json"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }
}
