package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.jrdma.soft.engine.CounterFile;
import org.jrdma.testkit.CapturedLog;
import org.jrdma.testkit.Host;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stats directory is a shared place (/dev/shm is every user's): anyone may create
 * {@code /dev/shm/jrdma-<you>} before you do, or be able to write in the directory you named,
 * and plant a link under the name a device opens, {@code <device>.<pid>.cnt} — which the device
 * opened with CREATE and TRUNCATE, truncating and overwriting whatever the link pointed to. A
 * directory that is a link, belongs to another user, or that others may write is not used (the
 * counters stay private, with one warning), and links are never followed.
 */
class StatsDirectoryTrustTest {
    private static final List<String> NAMES = List.of("sent_packets");
    private static final String VICTIM = "a file the attacker wants destroyed\n";

    @Test
    void aDirectoryOthersMayWriteIsNotUsedAndItsPlantedLinkIsNotFollowed(@TempDir Path tmp) throws IOException {
        Path stats = Files.createDirectory(tmp.resolve("shared"));
        Files.setPosixFilePermissions(stats, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path victim = Files.writeString(tmp.resolve("victim"), VICTIM);
        Files.createSymbolicLink(stats.resolve("dev." + ProcessHandle.current().pid() + ".cnt"), victim);
        try (CapturedLog log = CapturedLog.of("org.jrdma.soft.counters")) {
            assertThat(CounterFile.create(stats, "dev", NAMES)).isEmpty();
            assertThat(log.warnings(stats.toString())).singleElement().asString().contains("may be written by its group and others (mode 777)");
        }
        assertThat(Files.readString(victim)).isEqualTo(VICTIM);
    }

    @Test
    void aDirectoryOfAnotherUserIsNotUsed(@TempDir Path tmp) throws IOException {
        assumeTrue(Host.isRoot(), "needs root to give a directory to another user");
        Path stats = Files.createDirectory(tmp.resolve("theirs"));
        Files.setAttribute(stats, "unix:uid", 65534);
        try (CapturedLog log = CapturedLog.of("org.jrdma.soft.counters")) {
            assertThat(CounterFile.create(stats, "dev", NAMES)).isEmpty();
            assertThat(log.warnings(stats.toString())).singleElement().asString().contains("belongs to uid 65534");
        }
        try (var files = Files.list(stats)) {
            assertThat(files.toList()).isEmpty();
        }
    }

    @Test
    void aDirectoryThatIsALinkIsNotUsed(@TempDir Path tmp) throws IOException {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        try (CapturedLog log = CapturedLog.of("org.jrdma.soft.counters")) {
            assertThat(CounterFile.create(link, "dev", NAMES)).isEmpty();
            assertThat(log.warnings(link.toString())).singleElement().asString().contains("is a symbolic link");
        }
    }

    @Test
    void aLinkInTheDirectoryIsNotFollowed(@TempDir Path tmp) throws IOException {
        Path stats = Files.createDirectory(tmp.resolve("own"));
        Path victim = Files.writeString(tmp.resolve("victim"), VICTIM);
        Files.createSymbolicLink(stats.resolve("dev." + ProcessHandle.current().pid() + ".cnt"), victim);
        try (CapturedLog log = CapturedLog.of("org.jrdma.soft.counters")) {
            assertThat(CounterFile.create(stats, "dev", NAMES)).isEmpty();
        }
        assertThat(Files.readString(victim)).isEqualTo(VICTIM);
        assertThat(CounterFile.create(stats, "other", NAMES)).as("an own directory still works").isPresent()
                .hasValueSatisfying(CounterFile::close);
    }
}
