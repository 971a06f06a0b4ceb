package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jrdma.soft.engine.CounterFile;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Device counters shared through files, the way a NIC's are shared by every process: live
 * processes are summed, closed and dead ones folded into a retired total, nothing is lost.
 */
class CounterFileTest {
    private static final List<String> NAMES = List.of("sent_packets", "rcvd_packets", "drop_bad_icrc");

    @Test
    void liveFilesAreSummedAndClosedOnesRetired(@TempDir Path dir) {
        CounterFile first = CounterFile.create(dir, "dev0", NAMES).orElseThrow();
        add(first, 0, 5);
        add(first, 2, 1);
        assertThat(CounterFile.read(dir, "dev0")).containsEntry("sent_packets", 5L).containsEntry("drop_bad_icrc", 1L);

        first.close();
        assertThat(files(dir, ".cnt")).isEmpty();
        assertThat(CounterFile.read(dir, "dev0")).as("retired, not lost").containsEntry("sent_packets", 5L);

        CounterFile second = CounterFile.create(dir, "dev0", NAMES).orElseThrow();
        add(second, 0, 7);
        add(second, 1, 3);
        assertThat(CounterFile.read(dir, "dev0")).containsEntry("sent_packets", 12L).containsEntry("rcvd_packets", 3L);
        assertThat(CounterFile.read(dir, "other")).as("per device").isEmpty();
        second.close();
        assertThat(CounterFile.read(dir, "dev0")).containsEntry("sent_packets", 12L).containsEntry("drop_bad_icrc", 1L);
    }

    @Test
    void aDeadProcessFileIsFoldedIntoTheRetiredTotal(@TempDir Path dir) throws Exception {
        CounterFile mine = CounterFile.create(dir, "dev1", NAMES).orElseThrow();
        add(mine, 1, 9);
        long deadPid = deadPid();
        Path own = files(dir, ".cnt").getFirst();
        byte[] image = Files.readAllBytes(own);
        // the same image as written by a process that has exited (its pid is recorded inside too)
        java.nio.ByteBuffer.wrap(image).order(java.nio.ByteOrder.nativeOrder()).putLong(16, deadPid);
        Files.write(dir.resolve("dev1." + deadPid + ".cnt"), image);

        assertThat(CounterFile.read(dir, "dev1")).containsEntry("rcvd_packets", 18L);
        assertThat(Files.exists(dir.resolve("dev1." + deadPid + ".cnt"))).as("the dead file is removed").isFalse();
        assertThat(CounterFile.read(dir, "dev1")).as("and counted once").containsEntry("rcvd_packets", 18L);
        mine.close();
    }

    @Test
    void damagedFilesAreIgnoredAndRemovedWhenTheirWriterIsGone(@TempDir Path dir) throws Exception {
        long deadPid = deadPid();
        Files.write(dir.resolve("dev2." + deadPid + ".cnt"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("dev2.retired"), "sent_packets=4\nsent_packets=x\ngarbage\n".getBytes());
        assertThat(CounterFile.read(dir, "dev2")).containsExactly(Map.entry("sent_packets", 4L));
        assertThat(Files.exists(dir.resolve("dev2." + deadPid + ".cnt"))).isFalse();
    }

    @Test
    void theDeviceCountsIntoItsFileAndTheHostViewSeesIt() {
        SoftDevice dev = FreshDevices.fresh("shared");
        // The host view sums every file of the name in the stats directory, which outlives this
        // JVM: an earlier run's device of the same name (FreshDevices numbers from the pid) may
        // have left retired totals there. What this test adds is what it compares.
        long before = dev.counters().getOrDefault("sent_packets", 0L);
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            for (int i = 0; i < 10; i++) {
                p.postRecv(i, 0, 4096);
                p.send(100 + i, 0, 4096);
            }
            List<WorkCompletion> done = RcPair.poll(p.cqA, 10, Duration.ofSeconds(20));
            assertThat(done).hasSize(10).allMatch(wc -> wc.status == WcStatus.SUCCESS);
            Map<String, Long> own = p.ctx.counters();
            Map<String, Long> host = dev.counters();
            // 10 × 4 packets of 1024 B from A to B (one device: both ends count here)
            assertThat(own.get("sent_packets")).isGreaterThanOrEqualTo(40L);
            assertThat(host.get("sent_packets") - before).isGreaterThanOrEqualTo(own.get("sent_packets"))
                    .isLessThanOrEqualTo(p.ctx.counters().get("sent_packets"));
            assertThat(host).doesNotContainKey("drop_none").containsKey("drop_bad_icrc");
        }
        // closed: the totals are retired, not lost
        assertThat(dev.counters().get("sent_packets") - before).isGreaterThanOrEqualTo(40L);
    }

    /** Issue 12 item 10: opening and closing a device that counted nothing leaves no file (it used to leave a lock and a retired total). */
    @Test
    void aDeviceThatCountedNothingLeavesNothing(@TempDir Path dir) {
        CounterFile f = CounterFile.create(dir, "idle", NAMES).orElseThrow();
        assertThat(files(dir, ".cnt")).hasSize(1);
        assertThat(CounterFile.read(dir, "idle")).containsEntry("sent_packets", 0L);
        f.close();
        assertThat(files(dir, "")).isEmpty();
    }

    /** One lock file serves the whole directory, made only when a total is folded; a retired total only for a device that counted. */
    @Test
    void theDirectoryHoldsOneLockAndATotalPerDeviceThatCounted(@TempDir Path dir) {
        for (int i = 0; i < 5; i++) {
            CounterFile f = CounterFile.create(dir, "dev_" + i, NAMES).orElseThrow();
            if (i % 2 == 0) {
                add(f, 0, i + 1);
            }
            f.close();
        }
        assertThat(files(dir, "")).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder(CounterFile.LOCK, "dev_0.retired", "dev_2.retired", "dev_4.retired");
        assertThat(CounterFile.read(dir, "dev_4")).containsEntry("sent_packets", 5L);
        assertThat(CounterFile.read(dir, "dev_1")).isEmpty();
    }

    /** Devices no other process can name (chaos, tests) keep their counters in the process and write nothing. */
    @Test
    void privateCountersWriteNothingToTheDirectory(@TempDir Path dir) {
        SoftDevice dev = FreshDevices.fresh("private", SoftOptions.defaults().statsDir(dir).privateCounters());
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            p.postRecv(1, 0, 64);
            p.send(2, 0, 64);
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(20))).hasSize(1);
            assertThat(p.ctx.counters().get("sent_packets")).isPositive();
            assertThat(dev.counters().get("sent_packets")).as("this process's view of the open device").isPositive();
            assertThat(files(dir, "")).isEmpty();
        }
        assertThat(files(dir, "")).isEmpty();
    }

    /** "eth0.1" (a VLAN's device) and "eth0_1" (eth0's second address) are two devices with two files; names stay in the directory. */
    @Test
    void deviceNamesMapToFileNamesOneToOne(@TempDir Path dir) {
        CounterFile vlan = CounterFile.create(dir, "soft_eth0.1", NAMES).orElseThrow();
        CounterFile second = CounterFile.create(dir, "soft_eth0_1", NAMES).orElseThrow();
        add(vlan, 0, 3);
        add(second, 0, 5);
        assertThat(CounterFile.read(dir, "soft_eth0.1")).containsEntry("sent_packets", 3L);
        assertThat(CounterFile.read(dir, "soft_eth0_1")).containsEntry("sent_packets", 5L);
        vlan.close();
        second.close();
        assertThat(CounterFile.read(dir, "soft_eth0.1")).containsEntry("sent_packets", 3L);
        assertThat(CounterFile.safe("../x/y")).doesNotContain("/").isNotEqualTo(CounterFile.safe("__x_y"));
        assertThat(CounterFile.safe(".hidden")).doesNotStartWith(".");
    }

    private static void add(CounterFile f, int slot, long n) {
        f.values().set(ValueLayout.JAVA_LONG, slot * 8L, f.values().get(ValueLayout.JAVA_LONG, slot * 8L) + n);
    }

    private static List<Path> files(Path dir, String suffix) {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(suffix)).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The pid of a process that has exited (a short-lived child we waited for). */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long pid = p.pid();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        return pid;
    }
}
