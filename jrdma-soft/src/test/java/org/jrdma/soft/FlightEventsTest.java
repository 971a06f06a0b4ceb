package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jrdma.soft.net.Impairment;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soft provider's Flight Recorder events, recorded in-process and read back from the
 * dumped file: the QP walk and a transport-caused ERR (QpStateChange), the RNR_RETRY_EXC_ERR
 * completion that caused it (ErrorCompletion), and over an impaired link the periodic
 * RetrySummary and Drops, whose deltas add up to at least the counters read before close.
 */
@Tag("jfr") // in a JVM of its own (jrdma-soft/pom.xml): JFR stays running after it, and HotPathAllocationTest counts every thread
class FlightEventsTest {
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Test
    void aRecordingHoldsStateChangesErrorCompletionsRetriesAndDrops(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("soft.jfr");
        int rnrQpn;
        String rnrDevice;
        int lossyQpn;
        String lossyDevice;
        long retransmitted;
        long rnrNaksSent;
        long dropped;
        try (Recording r = new Recording()) {
            r.enable("org.jrdma.QpStateChange");
            r.enable("org.jrdma.ErrorCompletion");
            r.enable("org.jrdma.RetrySummary").withPeriod(Duration.ofMillis(100));
            r.enable("org.jrdma.Drops").withPeriod(Duration.ofMillis(100));
            r.start();

            // RNR: a SEND with no receive posted and rnr_retry 1 ends in RNR_RETRY_EXC_ERR
            SoftDevice rnrDev = FreshDevices.fresh("jfr_rnr");
            rnrDevice = rnrDev.name();
            try (RcPair p = new RcPair(rnrDev, Mtu.MTU_1024, 14, 7, 1, 1, 4096)) {
                rnrQpn = p.a.qpNum();
                p.send(77, 0, 64);
                List<WorkCompletion> wc = RcPair.poll(p.cqA, 1, DEADLINE);
                assertThat(wc).hasSize(1);
                assertThat(wc.get(0).status).isEqualTo(WcStatus.RNR_RETRY_EXC_ERR);
                rnrNaksSent = p.b.counters().get("rnr_naks_sent");
            }

            // retransmissions and drops: loss makes the requester retry, corruption makes the receiver drop
            Impairment impairment = Impairment.parse("loss=4%,corrupt=2%,seed=16004");
            SoftDevice lossy = FreshDevices.fresh("jfr_loss", SoftOptions.defaults().impairment(impairment));
            lossyDevice = lossy.name();
            try (RcPair p = new RcPair(lossy, Mtu.MTU_1024, 10, 7, 7, 1, 101 * 3000)) {
                lossyQpn = p.a.qpNum();
                SendStream.Result result = SendStream.of(p).run(100, 3000, impairment.seed(), DEADLINE);
                assertThat(result.perfect(100)).as(result.line()).isTrue();
                retransmitted = p.a.counters().get("retransmitted_packets");
                Map<String, Long> hca = p.hca().countersSnapshot();
                dropped = hca.entrySet().stream().filter(e -> e.getKey().startsWith("drop_"))
                        .mapToLong(Map.Entry::getValue).sum();
            }
            r.stop();
            r.dump(file);
        }
        assertThat(retransmitted).as("the lossy run retransmitted").isPositive();
        assertThat(dropped).as("the corrupting run dropped packets").isPositive();
        assertThat(rnrNaksSent).isPositive();

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Predicate<RecordedEvent> rnrQp = e -> rnrDevice.equals(e.getString("device")) && e.getInt("qpn") == rnrQpn;

        List<String> walk = named(events, "org.jrdma.QpStateChange").stream().filter(rnrQp)
                .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime)) // threads' buffers are not in time order
                .map(e -> e.getString("from") + "→" + e.getString("to") + (e.getString("cause") == null ? "" : " (" + e.getString("cause") + ")"))
                .toList();
        assertThat(walk).containsExactly("RESET→INIT", "INIT→RTR", "RTR→RTS",
                "RTS→ERR (error completion RNR_RETRY_EXC_ERR)", "ERR→RESET"); // the last by ibv_destroy_qp

        RecordedEvent error = named(events, "org.jrdma.ErrorCompletion").stream().filter(rnrQp).findFirst().orElseThrow();
        assertThat(error.getLong("wrId")).isEqualTo(77);
        assertThat(error.getString("opcode")).isEqualTo("SEND");
        assertThat(error.getString("status")).isEqualTo("RNR_RETRY_EXC_ERR");
        assertThat(error.getInt("vendorErr")).isZero();

        List<RecordedEvent> rnr = named(events, "org.jrdma.RetrySummary").stream().filter(rnrQp).toList();
        assertThat(rnr.stream().mapToLong(e -> e.getLong("rnrNaksRcvd")).sum()).isEqualTo(2); // the first try and the one retry
        assertThat(rnr.stream().mapToLong(e -> e.getLong("rnrRetryExceeded")).sum()).isEqualTo(1);

        List<RecordedEvent> retries = named(events, "org.jrdma.RetrySummary").stream()
                .filter(e -> lossyDevice.equals(e.getString("device")) && e.getInt("qpn") == lossyQpn).toList();
        assertThat(retries).allSatisfy(e -> assertThat(e.getLong("retransmittedPackets") + e.getLong("retryTimeouts")
                + e.getLong("seqNaksRcvd") + e.getLong("rnrNaksRcvd")).as("only QPs whose counters moved").isPositive());
        assertThat(retries.stream().mapToLong(e -> e.getLong("retransmittedPackets")).sum()).isGreaterThanOrEqualTo(retransmitted);

        List<RecordedEvent> drops = named(events, "org.jrdma.Drops").stream()
                .filter(e -> lossyDevice.equals(e.getString("device"))).toList();
        assertThat(drops).allSatisfy(e -> {
            assertThat(e.getLong("count")).isPositive();
            assertThat(e.getString("reason")).isNotBlank().isNotEqualTo("none");
        });
        assertThat(drops.stream().mapToLong(e -> e.getLong("count")).sum()).isGreaterThanOrEqualTo(dropped);
        Files.delete(file);
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }
}
