package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Loss made by the kernel, not by us (DESIGN "Testing"): in a fresh network namespace, an
 * nftables rule in the INPUT hook drops 5 % of UDP 4791 datagrams — in the input hook because
 * a drop in the output hook makes the sender's send() fail with EPERM instead of losing the
 * packet. A child JVM started with {@code ip netns exec} runs two soft devices on 10.99.0.1 and
 * 10.99.0.2 (on the namespace's lo) and an RC SEND stream between them ({@link NetnsTraffic});
 * everything must arrive exactly once, after retransmissions.
 *
 * <p>Needs root, {@code ip} (iproute2) and {@code nft} (nftables: {@code apt-get install -y
 * nftables}); skipped otherwise.
 */
class NetnsLossTest {
    private static String tool(String name) {
        return Netns.tool(name);
    }

    private static Netns.Run run(String... command) throws IOException, InterruptedException {
        return Netns.run(command);
    }

    private static Map<String, String> result(String out) {
        return Netns.result(out);
    }

    private static final String TABLE = "jrdma_loss";
    private static final int MESSAGES = 300;
    private static final int SIZE = 3000;
    /**
     * 4.096 µs × 2^12 ≈ 16.8 ms. Two devices mean two engine threads plus the application's: at
     * timeout 8 (≈ 1 ms) on a loaded 2-vCPU machine this stream retried spuriously even with no
     * rule at all, and ended in RETRY_EXC_ERR in half of the runs.
     */
    private static final int TIMEOUT = 12;

    @Test
    void rcDeliversEverySendOnceThroughKernelInputDrops() throws Exception {
        assumeTrue(org.jrdma.testkit.Host.isRoot(), "needs root to create a network namespace and nftables rules");
        String ip = tool("ip");
        String nft = tool("nft");
        assumeTrue(ip != null, "needs iproute2's ip on PATH or in /usr/sbin, /sbin");
        assumeTrue(nft != null, "needs nft (apt-get install -y nftables)");

        String ns = "jrdma-loss-" + ProcessHandle.current().pid();
        Path rules = Files.createTempFile("jrdma-nft", ".rules");
        Path output = Files.createTempFile("jrdma-netns", ".out");
        try {
            Netns.Run add = run(ip, "netns", "add", ns);
            if (add.code() != 0) {
                abort("cannot create a network namespace here (" + add.output().strip() + ")");
            }
            check(run(ip, "-n", ns, "link", "set", "lo", "up"));
            check(run(ip, "-n", ns, "addr", "add", "10.99.0.1/32", "dev", "lo"));
            check(run(ip, "-n", ns, "addr", "add", "10.99.0.2/32", "dev", "lo"));
            Files.writeString(rules, """
                    table inet %s {
                        chain input {
                            type filter hook input priority 0; policy accept;
                            udp dport 4791 numgen random mod 1000 < 50 counter drop
                        }
                    }
                    """.formatted(TABLE));
            Netns.Run load = run(ip, "netns", "exec", ns, nft, "-f", rules.toString());
            if (load.code() != 0) {
                abort("nftables is not usable here (no nf_tables in the kernel?): " + load.output().strip());
            }

            List<String> command = new ArrayList<>(List.of(ip, "netns", "exec", ns));
            command.addAll(Netns.trafficJvm());
            command.addAll(List.of("10.99.0.1", "10.99.0.2", Integer.toString(MESSAGES), Integer.toString(SIZE),
                    Integer.toString(TIMEOUT)));
            Netns.Run child = Netns.runChild(command, output, 30);
            String out = child.output();
            long kernelDrops = kernelDrops(run(ip, "netns", "exec", ns, nft, "list", "chain", "inet", TABLE, "input").output());
            String why = "child output:\n" + out + "\nkernel drops: " + kernelDrops;

            System.out.println("NetnsLossTest: " + out.strip() + " kernelDrops=" + kernelDrops);
            Map<String, String> r = result(out);
            assertThat(r).as(why).isNotEmpty();
            assertThat(child.code()).as(why).isZero();
            assertThat(r).as(why)
                    .containsEntry("sendOk", Integer.toString(MESSAGES))
                    .containsEntry("recvOk", Integer.toString(MESSAGES))
                    .containsEntry("bytesMatch", "true")
                    .containsEntry("extraReceives", "0")
                    .containsEntry("problem", "none");
            assertThat(kernelDrops).as(why).isPositive();
            assertThat(Long.parseLong(r.get("retransmitted"))).as(why).isPositive();
        } finally {
            run(ip, "netns", "del", ns); // takes the addresses and the nftables table with it
            Files.deleteIfExists(rules);
            Files.deleteIfExists(output);
        }
    }

    private static long kernelDrops(String listing) {
        Matcher m = Pattern.compile("counter packets (\\d+)").matcher(listing);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static void check(Netns.Run r) {
        assertThat(r.code()).as(r.output()).isZero();
    }
}
