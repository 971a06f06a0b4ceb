package org.jrdma.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code devices --json} and {@code devinfo --json}: what the text shows, as JSON a script can read. */
class DevicesJsonTest {
    private String device;
    private String address;

    @BeforeEach
    void ownDevice() throws Exception {
        String spec = FreeLoopback.deviceSpec("jsn");
        device = spec.substring(0, spec.indexOf('='));
        address = spec.substring(spec.indexOf('=') + 1);
        System.setProperty(SoftDeviceDiscovery.PROPERTY, spec);
    }

    @AfterEach
    void forgetDevice() {
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    @Test
    void devicesJson() {
        ToolRun r = ToolRun.of("devices", "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        Map<String, Object> doc = MiniJson.object(r.out().strip());
        assertThat(doc).containsKeys("devices", "native");
        List<Map<String, Object>> devices = list(doc.get("devices"));
        Map<String, Object> d = devices.stream().filter(m -> device.equals(m.get("name"))).findFirst().orElseThrow();
        assertThat((String) d.get("node_guid")).matches("[0-9a-f]{16}");
        assertThat(d).containsEntry("provider", "soft");
        // the same GUID as the text prints
        assertThat(ToolRun.of("devices").out()).containsPattern(device + "\\s+" + d.get("node_guid") + "\\s+soft: ");
    }

    @Test
    void devinfoJsonHasPortsGidsAndWithVerboseLimitsAndCounters() {
        ToolRun r = ToolRun.of("devinfo", "-d", device, "-v", "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        Map<String, Object> doc = MiniJson.object(r.out().strip());
        assertThat(doc).doesNotContainKey("native"); // as the text: only without -d
        Map<String, Object> d = list(doc.get("devices")).getFirst();
        assertThat(d).containsEntry("hca_id", device).containsEntry("transport", "InfiniBand").containsEntry("provider", "soft")
                .containsEntry("phys_port_cnt", new BigDecimal(1)).containsKeys("fw_ver", "node_guid", "max_qp", "max_cqe",
                        "max_inline_data", "counters");
        assertThat((String) d.get("node_guid")).matches("[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{4}");
        Map<String, Object> port = list(d.get("ports")).getFirst();
        assertThat(port).containsEntry("port", new BigDecimal(1)).containsEntry("state", "PORT_ACTIVE")
                .containsEntry("state_num", new BigDecimal(4)).containsEntry("link_layer", "Ethernet");
        assertThat(port.get("active_mtu")).isIn(new BigDecimal(256), new BigDecimal(512), new BigDecimal(1024),
                new BigDecimal(2048), new BigDecimal(4096));
        Map<String, Object> gid0 = list(port.get("gids")).getFirst();
        assertThat(gid0).containsEntry("index", BigDecimal.ZERO).containsEntry("gid", "::ffff:" + address)
                .containsEntry("type", "RoCE v2");
        assertThat(d.get("counters")).isInstanceOf(Map.class);

        Map<String, Object> plain = list(MiniJson.object(ToolRun.of("devinfo", "-d", device, "--json").out().strip())
                .get("devices")).getFirst();
        assertThat(plain).doesNotContainKeys("max_qp", "counters");
    }

    @Test
    @SuppressWarnings("unchecked")
    void devinfoListJsonIsTheNames() {
        ToolRun r = ToolRun.of("devinfo", "-l", "--json");
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat((List<Object>) MiniJson.object(r.out().strip()).get("devices")).contains(device);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }
}
