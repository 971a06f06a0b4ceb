package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jrdma.soft.net.NativeDatagrams;
import org.junit.jupiter.api.Test;

/**
 * The packets of a GSO send, as the wire has them. In a fresh network namespace whose lo may
 * not segment ({@code gso_max_segs 1}), the kernel splits every GSO send into its segments
 * before the capture point, numbering their IPv4 IDs 0, 1, 2, … — as on a link without UDP
 * segmentation offload, and as rxe's host sees them. A child JVM on the native datagram path
 * runs an RC SEND stream of 16 KiB messages at MTU 1024 (runs of 16 equal packets) between two
 * soft devices on that lo; tshark captures it. Every captured frame must carry a correct ICRC
 * for the IP header it really has (checked by interop/roce_report.py, an implementation
 * independent of ours), segments with IDs above 0 must be there (the runs were sent as GSO
 * sends), and the stream must arrive byte-exact.
 *
 * <p>Needs root, iproute2, tshark and python3, and native datagrams; skipped otherwise.
 */
class GsoWireTest {
    private static final int MESSAGES = 100;
    private static final int SIZE = 16 * 1024;
    private static final int TIMEOUT = 14;

    @Test
    void everySegmentOfAGsoSendCarriesTheIcrcOfItsIpv4Id() throws Exception {
        assumeTrue(org.jrdma.testkit.Host.isRoot(), "needs root to create a network namespace");
        assumeTrue(NativeDatagrams.isAvailable(), "native datagrams: " + NativeDatagrams.unavailableReason());
        String ip = Netns.tool("ip");
        String tshark = Netns.tool("tshark");
        String python = Netns.tool("python3");
        Path report = Path.of("..", "interop", "roce_report.py").toAbsolutePath().normalize();
        assumeTrue(ip != null && tshark != null && python != null, "needs ip, tshark and python3");
        assumeTrue(Files.isRegularFile(report), "needs " + report);

        String ns = "jrdma-gso-" + ProcessHandle.current().pid();
        Path capture = Files.createTempFile("jrdma-gso", ".pcap");
        Path output = Files.createTempFile("jrdma-gso", ".out");
        Process tsharkProcess = null;
        try {
            if (Netns.run(ip, "netns", "add", ns).code() != 0) {
                abort("cannot create a network namespace here");
            }
            check(Netns.run(ip, "-n", ns, "link", "set", "lo", "up"));
            check(Netns.run(ip, "-n", ns, "link", "set", "dev", "lo", "gso_max_segs", "1"));
            check(Netns.run(ip, "-n", ns, "addr", "add", "10.98.0.1/32", "dev", "lo"));
            check(Netns.run(ip, "-n", ns, "addr", "add", "10.98.0.2/32", "dev", "lo"));

            tsharkProcess = new ProcessBuilder(ip, "netns", "exec", ns, tshark, "-i", "lo", "-F", "pcap", "-w",
                    capture.toString(), "-f", "udp port 4791").redirectErrorStream(true).start();
            awaitCapturing(tsharkProcess);

            List<String> child = new ArrayList<>(List.of(ip, "netns", "exec", ns));
            child.addAll(Netns.trafficJvm("-Djrdma.soft.datagrams=native"));
            child.addAll(List.of("10.98.0.1", "10.98.0.2", Integer.toString(MESSAGES), Integer.toString(SIZE),
                    Integer.toString(TIMEOUT)));
            String out = Netns.runChild(child, output, 60).output();
            Map<String, String> r = Netns.result(out);
            assertThat(r).as(out).containsEntry("sendOk", Integer.toString(MESSAGES)).containsEntry("bytesMatch", "true");

            tsharkProcess.destroy(); // SIGTERM: tshark finishes the file
            assertThat(tsharkProcess.waitFor(20, TimeUnit.SECONDS)).as("tshark stopped").isTrue();

            Netns.Run icrc = Netns.run(python, report.toString(), capture.toString(), "gso");
            assertThat(icrc.code()).as(icrc.output()).isZero();
            assertThat(icrc.output()).as(icrc.output()).containsPattern("\\d+ RoCEv2 frames with valid ICRC, 0 invalid");
            Netns.Run ids = Netns.run(tshark, "-r", capture.toString(), "-T", "fields", "-e", "ip.id");
            long segments = ids.output().lines().map(String::strip)
                    .filter(l -> l.matches("0x[0-9a-fA-F]+") && Integer.decode(l) > 0).count(); // (stderr is mixed in)
            assertThat(segments).as("frames with an IPv4 ID above 0 (GSO segments)").isGreaterThanOrEqualTo(MESSAGES);
        } finally {
            if (tsharkProcess != null && tsharkProcess.isAlive()) {
                tsharkProcess.destroyForcibly();
            }
            Netns.run(ip, "netns", "del", ns);
            Files.deleteIfExists(capture);
            Files.deleteIfExists(output);
        }
    }

    /** Waits (30 s at most) until tshark says it captures: what is sent before that would be missed. */
    private static void awaitCapturing(Process tshark) throws InterruptedException {
        CountDownLatch capturing = new CountDownLatch(1);
        Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(tshark.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    if (line.contains("Capturing on")) {
                        capturing.countDown();
                    }
                }
            } catch (java.io.IOException e) {
                // tshark ended: the wait below fails and says so
            }
        });
        assertThat(capturing.await(30, TimeUnit.SECONDS)).as("tshark starts capturing within 30 s").isTrue();
    }

    private static void check(Netns.Run r) {
        assertThat(r.code()).as(r.output()).isZero();
    }
}
