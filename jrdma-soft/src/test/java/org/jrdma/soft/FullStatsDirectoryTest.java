package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jrdma.soft.engine.CounterFile;
import org.jrdma.testkit.CapturedLog;
import org.jrdma.testkit.SmallTmpfs;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 3: the stats directory full, missing or unwritable. The devices open and move
 * traffic, their counters work in the process, one warning per process and directory says why
 * they are not shared, and nothing is left in the directory. A full /dev/shm used to end every
 * command in {@code InternalError: a fault occurred in an unsafe memory access operation}: the
 * counter file was mapped before the filesystem had pages for it.
 */
class FullStatsDirectoryTest {
    private static final String LOGGER = "org.jrdma.soft.counters";

    @Test
    void aFullFilesystemKeepsTheCountersPrivateWithOneWarningAndLeavesNothing() {
        try (SmallTmpfs fs = SmallTmpfs.full("a full stats directory"); CapturedLog log = CapturedLog.of(LOGGER)) {
            SoftOptions options = SoftOptions.defaults().statsDir(fs.dir());
            SoftDevice dev = FreshDevices.fresh("fullstats", options);
            SoftDevice other = FreshDevices.fresh("fullstats_other", options);
            try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16); Context second = other.open()) {
                sendTen(p);
                assertThat(p.ctx.counters().get("sent_packets")).as("the process's own view").isGreaterThanOrEqualTo(40L);
                assertThat(dev.counters().get("sent_packets")).as("the device's host view includes this process")
                        .isGreaterThanOrEqualTo(40L);
                assertThat(second.counters()).containsKey("sent_packets");
            }
            assertThat(log.warnings(fs.dir().toString())).as("one warning for the directory, however many devices opened")
                    .singleElement().asString().contains("No space left on device", "stay private", CounterFile.ENV);
            assertThat(fs.leftovers()).as("nothing left in the full directory").isEmpty();
        }
    }

    @Test
    void aDirectoryThatFillsDuringTheRunStillLeavesNothingWhenTheDeviceCloses() {
        try (SmallTmpfs fs = SmallTmpfs.mount("a stats directory that fills up", ""); CapturedLog log = CapturedLog.of(LOGGER)) {
            CounterFile f = CounterFile.create(fs.dir(), "filling", List.of("sent_packets", "rcvd_packets")).orElseThrow();
            f.values().set(ValueLayout.JAVA_LONG, 0, 7L);
            fs.fill();
            f.close(); // the retired total cannot be written: the counts are lost, the file goes
            assertThat(fs.leftovers()).as("only the directory's one lock, made to fold the total").containsExactly(CounterFile.LOCK);
            assertThat(log.warnings(fs.dir().toString())).singleElement().asString()
                    .contains("not kept", "No space left on device");

            fs.drain();
            CounterFile again = CounterFile.create(fs.dir(), "filling", List.of("sent_packets")).orElseThrow();
            again.values().set(ValueLayout.JAVA_LONG, 0, 3L);
            again.close();
            assertThat(CounterFile.read(fs.dir(), "filling")).as("with room again, totals are kept")
                    .containsEntry("sent_packets", 3L);
        }
    }

    @Test
    void aReadOnlyDirectoryKeepsTheCountersPrivateWithOneWarning() {
        try (SmallTmpfs fs = SmallTmpfs.mount("a read-only stats directory", "ro"); CapturedLog log = CapturedLog.of(LOGGER)) {
            SoftDevice dev = FreshDevices.fresh("rostats", SoftOptions.defaults().statsDir(fs.dir()));
            try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
                sendTen(p);
                assertThat(dev.counters().get("sent_packets")).isGreaterThanOrEqualTo(40L);
            }
            assertThat(log.warnings(fs.dir().toString())).singleElement().asString().contains("Read-only file system");
            assertThat(fs.leftovers()).isEmpty();
        }
    }

    @Test
    void aDirectoryThatCannotBeCreatedKeepsTheCountersPrivateWithOneWarning(@TempDir Path tmp) throws IOException {
        Path notADirectory = Files.writeString(tmp.resolve("a-file"), "x");
        Path stats = notADirectory.resolve("stats"); // missing, and cannot be made
        try (CapturedLog log = CapturedLog.of(LOGGER)) {
            SoftDevice dev = FreshDevices.fresh("nostats", SoftOptions.defaults().statsDir(stats));
            try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
                sendTen(p);
                assertThat(p.ctx.counters().get("sent_packets")).isGreaterThanOrEqualTo(40L);
                assertThat(dev.counters().get("sent_packets")).isGreaterThanOrEqualTo(40L);
            }
            assertThat(log.warnings(stats.toString())).singleElement().asString().contains("Not a directory");
        }
    }

    @Test
    void aFileWhereTheDirectoryShouldBeIsNamedAsSuch(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("stats"), "x");
        try (CapturedLog log = CapturedLog.of(LOGGER)) {
            assertThat(CounterFile.create(file, "dev", List.of("sent_packets"))).isEmpty();
            assertThat(log.warnings(file.toString())).singleElement().asString()
                    .contains("cannot create " + file.resolve("dev." + ProcessHandle.current().pid() + ".cnt") + ": Not a directory");
        }
    }

    @Test
    void aMissingDirectoryIsCreatedOwnerOnlyAndShared(@TempDir Path tmp) throws IOException {
        Path stats = tmp.resolve("missing").resolve("stats");
        SoftDevice dev = FreshDevices.fresh("madestats", SoftOptions.defaults().statsDir(stats));
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 12, 1 << 16)) {
            sendTen(p);
            assertThat(CounterFile.read(stats, dev.name()).get("sent_packets")).as("shared through the new directory")
                    .isGreaterThanOrEqualTo(40L);
        }
        assertThat(Files.getPosixFilePermissions(stats)).extracting(Object::toString)
                .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE", "OWNER_EXECUTE");
    }

    private static void sendTen(RcPair p) {
        for (int i = 0; i < 10; i++) {
            p.postRecv(i, 0, 4096);
            p.send(100 + i, 0, 4096);
        }
        List<WorkCompletion> done = RcPair.poll(p.cqA, 10, Duration.ofSeconds(20));
        assertThat(done).hasSize(10).allMatch(wc -> wc.status == WcStatus.SUCCESS);
        assertThat(RcPair.poll(p.cqB, 10, Duration.ofSeconds(20))).hasSize(10);
    }
}
