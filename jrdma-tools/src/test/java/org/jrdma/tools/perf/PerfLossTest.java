package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.soft.net.ImpairmentSetting;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs over a network that loses packets (the soft devices' seeded impairment), on two devices:
 * what UC loses is counted, never called a --check failure.
 */
class PerfLossTest {
    private static String server;
    private static String client;

    @BeforeAll
    static void ownDevices() throws Exception {
        String a = PerfPair.deviceSpec("losss");
        String b = PerfPair.deviceSpec("lossc");
        server = a.substring(0, a.indexOf('='));
        client = b.substring(0, b.indexOf('='));
        System.setProperty(SoftDeviceDiscovery.PROPERTY, a + "," + b);
        System.setProperty(ImpairmentSetting.PROPERTY, "loss=2%,seed=5");
    }

    @AfterAll
    static void forgetDevices() {
        System.clearProperty(ImpairmentSetting.PROPERTY);
        System.clearProperty(SoftDeviceDiscovery.PROPERTY);
    }

    /**
     * A 64 KiB UC WRITE is 16 packets: with 2 % loss about one in four is lost after its first
     * packets were placed, and among the 16 target slots some last WRITE always is. The target
     * used to fail such a slot ("WRITE … differs at byte …"); it holds pieces of earlier WRITEs
     * into it, which is what UC leaves.
     */
    @Test
    void ucWriteBwCountsTheWritesItLost() throws Exception {
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", server, client, List.of(), List.of(),
                "write_bw", "-c", "UC", "-s", "65536", "-n", "400", "--check");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        PerfEndToEndTest.assertChecked(r.server().out());
        assertThat(r.server().out()).containsPattern("\n   \\([1-9]\\d* of the slots hold an earlier WRITE into them, in part"
                + " or whole, or nothing: UC lost the later ones\\)\n");
    }
}
