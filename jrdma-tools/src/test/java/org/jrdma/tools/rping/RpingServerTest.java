package org.jrdma.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * rping's server against clients that come while another is served, die, go quiet or leave
 * mid-ping (issue 12 item 5), in this JVM: the server, the real clients ({@code jrdma rping -c})
 * and a {@link ScriptedClient} that holds a connection open at a chosen step, all on one soft device.
 * With {@code -P} no client can stop the server or another client; without it the server serves
 * its one client, refuses the rest, and ends with that client's outcome.
 */
class RpingServerTest {
    @RegisterExtension
    final OwnDevices device = OwnDevices.perTest("rs"); // a fresh name per test: the CM remembers an address by its name
    private final List<BackgroundRun> servers = new ArrayList<>();

    @AfterEach
    void stopServers() throws Exception {
        for (BackgroundRun s : servers) {
            if (s.running()) {
                s.stop();
            }
        }
    }

    /** {@code rping -s -d -p 0 …} on this test's device; returns once it listens. */
    private BackgroundRun server(String... flags) {
        List<String> args = new ArrayList<>(List.of("rping", "-s", "-a", device.address(), "-p", "0", "-d"));
        args.addAll(List.of(flags));
        BackgroundRun s = BackgroundRun.start(args.toArray(String[]::new));
        servers.add(s);
        s.listeningPort();
        return s;
    }

    private ToolRun client(BackgroundRun server, String... flags) {
        List<String> args = new ArrayList<>(List.of("rping", "-c", "-a", device.address(), "-p", "" + server.listeningPort(), "-V", "-d"));
        args.addAll(List.of(flags));
        return ToolRun.of(args);
    }

    private static long count(String text, String what) {
        return text.lines().filter(l -> l.contains(what)).count();
    }

    @Test
    void aPersistentServerServesThreeClientsInARow() throws Exception {
        BackgroundRun s = server("-P");
        for (int i = 1; i <= 3; i++) {
            ToolRun c = client(s, "-C", "5");
            assertThat(c.code()).as(c + "\nserver:\n" + s).isZero();
            assertThat(c.out()).contains("rping: 5 pings done");
            int served = i;
            s.awaitOut(i + " sessions ended", o -> count(o, "5 pings served") == served);
        }
        assertThat(s.running()).isTrue();
        assertThat(count(s.err(), "server DISCONNECT EVENT...")).isEqualTo(3);
        ToolRun end = s.stop();
        assertThat(end.code()).as(end.toString()).isZero();
        assertThat(end.err()).doesNotContain("error");
    }

    /** The first case: a CONNECT_REQUEST during a session was "unexpected … (EPROTO)" and ended the server. */
    @Test
    void aSecondClientIsServedWhileTheFirstIsConnectedAndTheFirstCarriesOn() throws Exception {
        BackgroundRun s = server("-P");
        try (ScriptedClient first = new ScriptedClient(device.address(), s.listeningPort())) {
            assertThat(first.ping()).isTrue();
            ToolRun second = client(s, "-C", "3");
            assertThat(second.code()).as(second + "\nserver:\n" + s).isZero();
            assertThat(first.ping()).as("the first client after the second came and went").isTrue();
            assertThat(first.ping()).isTrue();
            first.disconnect();
            s.awaitOut("both sessions ended", o -> count(o, "pings served") == 2);
        }
        assertThat(s.out()).contains("rping: 3 pings served").contains("rping: 3 pings served; client"); // the first: 3 as well
        assertThat(s.err()).doesNotContain("jrdma rping:");
        assertThat(s.running()).isTrue();
    }

    /** Without -P, as rping, one client; the second is told why it is refused, and the first is not disturbed. */
    @Test
    void withoutPASecondClientIsRefusedAsBusyAndTheFirstCarriesOn() throws Exception {
        BackgroundRun s = server();
        try (ScriptedClient first = new ScriptedClient(device.address(), s.listeningPort())) {
            assertThat(first.ping()).isTrue();
            ToolRun second = client(s, "-C", "3");
            assertThat(second.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(second.err().lines()).hasSize(1);
            assertThat(second.err()).contains("the server refused the connection: rping server busy: without -P it serves one client"
                    + " (REJECTED, reason 28 CONSUMER_DEFINED)");
            assertThat(first.ping()).isTrue();
            first.disconnect();
        }
        ToolRun end = s.awaitEnd();
        assertThat(end.code()).as(end.toString()).isZero(); // rping's 0: the client disconnected
        assertThat(end.err()).isEqualTo("server DISCONNECT EVENT..." + System.lineSeparator());
    }

    @Test
    void aPersistentServerRefusesARequestBeyondMaxClientsAndTakesOneWhenASlotIsFree() throws Exception {
        BackgroundRun s = server("-P", "--max-clients", "1");
        try (ScriptedClient first = new ScriptedClient(device.address(), s.listeningPort())) {
            ToolRun second = client(s, "-C", "3");
            assertThat(second.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(second.err()).contains("rping server busy: it serves 1 clients at once (--max-clients)");
            assertThat(first.ping()).isTrue();
            first.disconnect();
            s.awaitOut("the first session ended", o -> o.contains("pings served"));
        }
        ToolRun third = client(s, "-C", "3");
        assertThat(third.code()).as(third + "\nserver:\n" + s).isZero();
    }

    /**
     * How the server learns that a client died depends on where the ping was: the READ of the
     * advertised buffer or the go-ahead SEND meets no QP (the retry counter, ≈ 7 × 0.54 s, or
     * --timeout-ms if that comes first), or both were answered before the QP went and the server
     * then waits for a RECV that never comes (--timeout-ms).
     */
    private static final String DIED = "(RDMA_READ|SEND) completion failed: transport retry counter exceeded \\(12\\): the client"
            + " stopped acknowledging — it ended, was killed or stopped, or the path to it is down"
            + "|no (RDMA_READ|SEND) completion within 6000 ms: the client did not answer"
            + "|no RECV completion within 6000 ms: the client went quiet";

    /** The second case: a client that dies ("retry counter exceeded" escaped and ended the server). */
    @Test
    void aClientWhoseQpIsGoneIsReportedAndTheNextIsServed() throws Exception {
        BackgroundRun s = server("-P", "--timeout-ms", "6000");
        try (ScriptedClient lost = new ScriptedClient(device.address(), s.listeningPort())) {
            assertThat(lost.ping()).isTrue();
            lost.advertiseStartBuffer(); // the server READs it, from a QP that is no more
            lost.loseQp();
            s.awaitErr("the lost client reported", e -> e.contains("; the server (-P) goes on"));
        }
        assertThat(s.err().lines().filter(l -> l.startsWith("jrdma rping: client "))).singleElement().asString().containsPattern(DIED);
        ToolRun next = client(s, "-C", "3");
        assertThat(next.code()).as(next + "\nserver:\n" + s).isZero();
        assertThat(s.running()).isTrue();
    }

    /** Without -P the server's one client dying ends the server: a failure (rping: "rping server failed"), in one line. */
    @Test
    void withoutPAClientWhoseQpIsGoneFailsTheServerInOneLine() throws Exception {
        BackgroundRun s = server("--timeout-ms", "6000");
        try (ScriptedClient lost = new ScriptedClient(device.address(), s.listeningPort())) {
            assertThat(lost.ping()).isTrue();
            lost.advertiseStartBuffer();
            lost.loseQp();
            ToolRun end = s.awaitEnd();
            assertThat(end.code()).isEqualTo(ExitCodes.FAILURE);
            assertThat(end.err().lines()).as(end.err()).hasSize(1);
            assertThat(end.err()).startsWith("jrdma rping: error: rping: ").containsPattern(DIED);
        }
    }

    /** A client that connects and never sends holds up nobody, and is let go after --timeout-ms. */
    @Test
    void aClientThatNeverSendsHoldsUpNobodyAndIsDroppedAfterTheTimeout() throws Exception {
        BackgroundRun s = server("-P", "--timeout-ms", "3000");
        try (ScriptedClient quiet = new ScriptedClient(device.address(), s.listeningPort())) {
            ToolRun other = client(s, "-C", "3");
            assertThat(other.code()).as(other + "\nserver:\n" + s).isZero();
            s.awaitErr("the quiet client dropped", e -> e.contains("; the server (-P) goes on"));
            assertThat(s.err()).contains("no RECV completion within 3000 ms: the client went quiet");
        }
        ToolRun after = client(s, "-C", "3");
        assertThat(after.code()).as(after + "\nserver:\n" + s).isZero();
        assertThat(s.running()).isTrue();
    }

    /** A client that disconnects between the halves of a ping: a clean end for the server (rping's DISCONNECTED: 0). */
    @Test
    void aClientThatDisconnectsMidPingEndsItsSessionCleanly() throws Exception {
        BackgroundRun s = server();
        try (ScriptedClient leaving = new ScriptedClient(device.address(), s.listeningPort())) {
            assertThat(leaving.ping()).isTrue();
            leaving.advertiseStartBuffer();
            leaving.disconnect();
            ToolRun end = s.awaitEnd();
            assertThat(end.code()).as(end.toString()).isZero();
            assertThat(end.err()).isEqualTo("server DISCONNECT EVENT..." + System.lineSeparator());
            assertThat(end.out()).contains("rping: 1 pings served");
        }
    }
}
