package org.jrdma.tools.rping;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.tools.FreeLoopback;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.ToolRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code jrdma rping} in this JVM (server and client on one soft device), its flags, and its wire formats. */
class RpingCommandTest {
    @RegisterExtension
    final OwnDevices device = OwnDevices.perTest("rp"); // a fresh name per test: the CM remembers an address by its name

    /**
     * A client run, repeated while it is REJECTED: the server thread may not listen yet, and a
     * REQ for a service nobody listens on gets REJ 8 at once (as with rdma_cm), so the client
     * retries until the listener is up — the condition, with a deadline, not a sleep.
     */
    private static ToolRun clientOnceListening(String... args) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        ToolRun r = ToolRun.of(args);
        while (r.code() != 0 && r.err().contains("REJECTED") && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            r = ToolRun.of(args);
        }
        return r;
    }

    @Test
    void serverAndClientInOneProcessValidateEveryPingOfALargerBuffer() throws Exception {
        CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of("rping", "-s", "-a", device.address(), "-p", "7201", "-S", "5000"));
        ToolRun client = clientOnceListening("rping", "-c", "-a", device.address(), "-p", "7201", "-C", "20", "-S", "5000", "-V", "-d");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(client.code()).as(client.out() + client.err() + " | server: " + s.out() + s.err()).isZero();
        assertThat(s.code()).as(s.err()).isZero();
        assertThat(client.out()).contains("rping: 20 pings done");
        assertThat(client.out()).doesNotContain("ping data:"); // -v was not given
    }

    @Test
    void aClientWithALargerBufferThanTheServersIsRefusedClearly() throws Exception {
        CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of("rping", "-s", "-a", device.address(), "-p", "7204"));
        ToolRun client = clientOnceListening("rping", "-c", "-a", device.address(), "-p", "7204", "-C", "1", "-S", "100");
        ToolRun s = server.get(60, TimeUnit.SECONDS);
        assertThat(s.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(s.err()).contains("the client's buffer is 100 bytes, this server's is 64: give both sides the same -S");
        assertThat(client.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(client.err()).contains("rping: the server disconnected after 0 of 1 pings (at the first one: a server whose -S"
                + " is smaller than this client's 100 does that)");
    }

    @Test
    void aClientOfAPortNobodyListensOnIsRejected() throws Exception {
        CompletableFuture<ToolRun> server = CompletableFuture.supplyAsync(() -> ToolRun.of("rping", "-s", "-a", device.address(), "-p", "7202"));
        ToolRun client = ToolRun.of("rping", "-c", "-a", device.address(), "-p", "7203", "-C", "1");
        assertThat(client.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(client.err()).contains("rping: nobody listens on " + device.address() + ":7203 (REJECTED, reason 8 INVALID_SERVICE_ID):"
                + " start the server first (jrdma rping -s), or check -a and -p");
        // The server still serves a proper client afterwards.
        ToolRun ok = clientOnceListening("rping", "-c", "-a", device.address(), "-p", "7202", "-C", "3", "-V");
        assertThat(ok.code()).as(ok.err()).isZero();
        assertThat(server.get(60, TimeUnit.SECONDS).code()).isZero();
    }

    /** A server address where nothing answers: said so, naming the address and the wait, not "get_cm_event: no event". */
    @Test
    void aClientWhoseServerNeverAnswersSaysSo() throws Exception {
        String nobody = FreeLoopback.deviceSpec("none").split("=")[1]; // UDP 4791 free there: no device, nobody answers
        ToolRun r = ToolRun.of("rping", "-c", "-a", nobody, "-p", "7205", "-C", "1", "--timeout-ms", "1500");
        assertThat(r.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err()).isEqualTo("jrdma rping: error: rping: no answer from " + nobody + ":7205 within 1500 ms: is an rping server"
                + " (-s) running there? (--timeout-ms sets this wait) (TIMED_OUT, errno 110)" + System.lineSeparator());
    }

    /**
     * The server ends the session first (here: it is stopped): with {@code -C 0} that is the run's
     * normal end, as in rping (exit 0, "client DISCONNECT EVENT..."); with a count not reached, a
     * failure that says how far it got.
     */
    @Test
    void aServerThatDisconnectsEndsAForeverClientCleanlyAndACountedOneWithTheCountReached() throws Exception {
        for (String count : List.of("0", "1000000000")) {
            BackgroundRun server = BackgroundRun.start("rping", "-s", "-P", "-a", device.address(), "-p", "0", "-d");
            int port = server.listeningPort();
            BackgroundRun client = BackgroundRun.start("rping", "-c", "-a", device.address(), "-p", "" + port, "-C", count, "-V");
            server.awaitOut("the client's session", o -> o.contains("established"));
            server.stop();
            ToolRun c = client.awaitEnd();
            assertThat(c.err()).as(c.toString()).contains("client DISCONNECT EVENT...");
            if (count.equals("0")) {
                assertThat(c.code()).as(c.toString()).isZero();
            } else {
                assertThat(c.code()).as(c.toString()).isEqualTo(ExitCodes.FAILURE);
                assertThat(c.err()).containsPattern("rping: the server disconnected after \\d+ of 1000000000 pings");
            }
        }
    }

    @Test
    void usageErrorsExitTwo() {
        for (List<String> args : List.of(List.of("rping"), List.of("rping", "-s", "-c"), List.of("rping", "-c"),
                List.of("rping", "-c", "-a", "127.0.0.1", "-S", "25"), List.of("rping", "-c", "-a", "127.0.0.1", "-S", "65536"),
                List.of("rping", "-c", "-a", "127.0.0.1", "-C", "-1"), List.of("rping", "-c", "-a", "127.0.0.1", "-q"),
                List.of("rping", "-c", "-a", "127.0.0.1", "-P"), List.of("rping", "-s", "-I", "127.0.0.1"),
                List.of("rping", "-s", "--max-clients", "4"), List.of("rping", "-s", "-P", "--max-clients", "0"),
                List.of("rping", "-c", "-a", "127.0.0.1", "-x"))) {
            ToolRun r = ToolRun.of(args.toArray(String[]::new));
            assertThat(r.code()).as(args.toString()).isEqualTo(ExitCodes.USAGE);
        }
        assertThat(ToolRun.of("rping", "-c", "-a", "127.0.0.1", "-S", "25").err()).contains("Invalid size 25 (valid range is 26 to 65535)");
        assertThat(ToolRun.of("rping", "-c", "-a", "127.0.0.1", "-q").err()).contains("-q (a QP made and moved through its states by rping"
                + " itself, with rdma_init_qp_attr) is not supported");
        assertThat(ToolRun.of("rping", "-s", "--max-clients", "4").err()).contains("--max-clients needs -P");
    }

    /** Issue 12 item 10: {@code --help} and {@code -h} were "Unknown option" (exit 2); as every jrdma tool, usage on stdout, exit 0. */
    @Test
    void helpAndHPrintTheUsageAndExitZero() {
        for (String flag : List.of("--help", "-h")) {
            ToolRun r = ToolRun.of("rping", flag);
            assertThat(r.code()).as(flag + ": " + r).isZero();
            assertThat(r.out()).as(flag).contains("Usage: jrdma rping").contains("-P").contains("Validate ping data");
            assertThat(r.err()).as(flag).isEmpty();
        }
    }

    /**
     * Issue 12 item 10: {@code -c -a ::1} with IPv4 devices only said "ADDR_ERROR … TIMED_OUT";
     * it says, in one line, that there is no IPv6 device, which devices there are, and how to make one.
     */
    @Test
    void anIpv6ServerWithoutAnIpv6DeviceIsNamedAsSuchInOneLine() {
        ToolRun r = ToolRun.of("rping", "-c", "-a", "::1", "-C", "1");
        assertThat(r.code()).as(r.toString()).isEqualTo(ExitCodes.FAILURE);
        assertThat(r.err().lines()).as(r.err()).hasSize(1);
        assertThat(r.err()).contains("no IPv6 soft device to reach ::1 (there are rp").contains(device.address())
                .contains("JRDMA_SOFT_DEVICES=NAME=::1").contains("NO_DEVICE, errno 19").doesNotContain("TIMED_OUT");
    }

    /** The same for a server told to listen on an address no device has, and for a client's -I. */
    @Test
    void aServerOrSourceAddressNoDeviceHasIsNamedWithTheDevicesThereAre() {
        ToolRun s = ToolRun.of("rping", "-s", "-a", "::1", "-p", "0");
        assertThat(s.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(s.err()).startsWith("jrdma rping: error: bind_addr: no soft device has address ::1 (there are rp")
                .contains(device.address()).contains("make one with JRDMA_SOFT_DEVICES=NAME=::1");
        ToolRun c = ToolRun.of("rping", "-c", "-a", device.address(), "-I", "192.0.2.9", "-C", "1");
        assertThat(c.code()).isEqualTo(ExitCodes.FAILURE);
        assertThat(c.err()).contains("resolve_addr: no soft device has source address 192.0.2.9 (there are rp");
    }

    @Test
    void theAdvertisementIsSixteenBigEndianBytes() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(RdmaInfo.BYTES);
            new RdmaInfo(0x0102030405060708L, 0x0a0b0c0d, 64).writeTo(s);
            assertThat(s.toArray(ValueLayout.JAVA_BYTE)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 64);
            assertThat(RdmaInfo.readFrom(s)).isEqualTo(new RdmaInfo(0x0102030405060708L, 0x0a0b0c0d, 64));
        }
    }

    @Test
    void thePingTextWrapsFromLowercaseZToUppercaseAAndEndsInNul() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(80);
            PingText.fill(s, 80, 7, 'x');
            assertThat(PingText.text(s, 80)).isEqualTo("rdma-ping-7: xyzABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyzABCDE");
            assertThat(s.get(ValueLayout.JAVA_BYTE, 79)).isZero();
            assertThat(PingText.nextStart('z')).isEqualTo('A');
        }
    }
}
