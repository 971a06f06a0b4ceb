package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jrdma.soft.net.ImpairmentSetting;
import org.jrdma.tools.OwnDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code -e}: every test sleeps on completion events instead of polling, on either side or on
 * both. Server and client are on two devices of their own, so each has its own engine and
 * device thread, as two processes have: a sleeping side's packets are then handled by its
 * device thread alone.
 */
class PerfEventsTest {
    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("evs", "evc");

    private static PerfPair.Result ok(List<String> serverOnly, List<String> clientOnly, String... args) throws Exception {
        PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), serverOnly, clientOnly, args);
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        return r;
    }

    /** write_lat polls memory for the peer's WRITE and refuses -e (a usage error, PerfEndToEndTest). */
    @ParameterizedTest(name = "{0} -c {1}")
    @CsvSource({"send_bw, RC", "send_bw, UC", "send_bw, UD", "write_bw, RC", "write_bw, UC", "read_bw, RC", "atomic_bw, RC",
            "send_lat, RC", "send_lat, UC", "send_lat, UD", "read_lat, RC", "atomic_lat, RC"})
    void everyTestRunsWithEventsOnBothSides(String test, String connection) throws Exception {
        boolean bw = test.endsWith("_bw");
        // fewer messages than receives posted, so that UC and UD lose none
        PerfPair.Result r = ok(List.of(), List.of(), test, "-e", "-c", connection, "-n", "400", "-s", "8", "--check");
        assertThat(r.client().out()).contains(" Test with events.\n");
        if (bw) {
            PerfEndToEndTest.assertBwRow(r.client().out(), 8, 400);
            PerfEndToEndTest.assertBwRow(r.server().out(), 8, 400);
        } else {
            PerfEndToEndTest.assertLatRow(r.client().out(), 8, 400);
            PerfEndToEndTest.assertChecked(r.client().out());
        }
        if (test.startsWith("send")) {
            PerfEndToEndTest.assertChecked(r.server().out());
        }
    }

    @ParameterizedTest(name = "{0}, events on the {1}")
    @CsvSource({"send_bw, server", "send_bw, client", "send_lat, server", "send_lat, client", "write_bw, server",
            "read_lat, client"})
    void oneSideWithEventsTheOtherPolling(String test, String side) throws Exception {
        List<String> events = List.of("-e");
        PerfPair.Result r = side.equals("server") ? ok(events, List.of(), test, "-n", "400", "-s", "8", "--check")
                : ok(List.of(), events, test, "-n", "400", "-s", "8", "--check");
        String out = side.equals("server") ? r.server().out() : r.client().out();
        assertThat(out).contains(" Test with events.\n");
    }

    /**
     * send_lat signals one SEND in cq_mod (100), as perftest does; the unsignaled ones hold
     * their send-queue slots until their ACKs come, and an ACK may come late: the peer's device
     * thread sends it while its application sleeps (-e, the issue's case), or it is lost and the
     * next one covers it. Here 3 % of the packets are lost (seeded): the answer to a SEND then
     * arrives before any ACK for it, and the queue must hold every SEND that can be
     * unacknowledged — one more than -t was not enough (post_send: the send queue is full, 2 WRs
     * outstanding, ENOMEM), polling or not.
     */
    @ParameterizedTest(name = "events: {0}")
    @CsvSource({"false", "true"})
    void sendLatencyAllowsForLateAcks(boolean events) throws Exception {
        System.setProperty(ImpairmentSetting.PROPERTY, "loss=3%,seed=12");
        try {
            PerfPair.Result r = events ? ok(List.of(), List.of(), "send_lat", "-s", "8", "-n", "300", "-e")
                    : ok(List.of(), List.of(), "send_lat", "-s", "8", "-n", "300");
            PerfEndToEndTest.assertLatRow(r.client().out(), 8, 300);
            PerfEndToEndTest.assertLatRow(r.server().out(), 8, 300);
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }

    /**
     * UC and UD drop a message that finds no receive (or, here, that the network lost: 5 %,
     * seeded), so a receiver that has seen messages flow and then nothing for 2 s gives up with
     * what arrived. With -e it slept on the completion channel until --timeout-ms instead (two
     * minutes here), whatever the 2 s said; the server must now end long before that.
     */
    @ParameterizedTest(name = "-c {0}")
    @CsvSource({"UC", "UD"})
    void anUnreliableReceiverWithEventsGivesUpOnLostMessages(String connection) throws Exception {
        System.setProperty(ImpairmentSetting.PROPERTY, "loss=5%,seed=3");
        try {
            PerfPair.Result r = PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), List.of(), List.of(), 120_000, 40,
                    "send_bw", "-e", "-c", connection, "-n", "200", "-s", "8");
            assertThat(r.server().code()).as(r.toString()).isZero();
            assertThat(r.client().code()).as(r.toString()).isZero();
            assertThat(r.server().out()).containsPattern(" [1-9]\\d* of 200 messages were lost \\(" + connection
                    + " does not retransmit\\)\n");
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }
}
