package org.jrdma.bootstrap.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.RecordingListener;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.bootstrap.SeedBinaryCodec;
import org.jrdma.bootstrap.TestInfos;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class FileExchangeTest {
    private static final Duration SHORT = Duration.ofMillis(300);

    @TempDir
    Path dir;

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    private FileExchange server(String session) {
        return FileExchange.of(dir, session, "server", "client").withTimeout(Duration.ofSeconds(10));
    }

    private FileExchange client(String session) {
        return FileExchange.of(dir, session, "client", "server").withTimeout(Duration.ofSeconds(10));
    }

    @Test
    void twoSidesExchangeThroughTheDirectoryAndLeaveNothingBehind() throws Exception {
        RecordingListener events = new RecordingListener();
        Future<ConnInfo> atServer = threads.submit(() -> server("run-1").exchange(TestInfos.SERVER, events));
        ConnInfo atClient = client("run-1").exchange(TestInfos.CLIENT);

        assertThat(atClient).isEqualTo(TestInfos.SERVER);
        assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
        assertThat(events.phases()).containsExactly(Phase.SENT, Phase.RECEIVED, Phase.CLOSED);
        try (var left = Files.list(dir)) {
            assertThat(left).as("each side deleted the file it read; no temporary files").isEmpty();
        }
    }

    /** OOB-12: written 0600 by write-then-atomic-rename, so never seen partial. */
    @Test
    void theFileHoldsTheRcPingpongTextAndIsPrivateWhileWaiting() throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        FileExchange side = FileExchange.of(dir, "run-2", "a", "b").withTimeout(SHORT);
        AtomicReference<byte[]> content = new AtomicReference<>();
        AtomicReference<String> mode = new AtomicReference<>();
        // The listener runs on the exchanging thread right after the rename: the file is there.
        assertThatThrownBy(() -> side.exchange(TestInfos.CLIENT, e -> {
            if (e.phase() == Phase.SENT) {
                try {
                    content.set(Files.readAllBytes(side.localFile()));
                    mode.set(PosixFilePermissions.toString(Files.getPosixFilePermissions(side.localFile())));
                } catch (IOException io) {
                    throw new IllegalStateException(io);
                }
            }
        })).isInstanceOf(ExchangeTimeoutException.class);

        assertThat(content.get()).isEqualTo(PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT));
        assertThat(mode.get()).isEqualTo("rw-------");
        assertThat(side.localFile().getFileName()).hasToString("jrdma-run-2.a.conn");
    }

    @Test
    void timesOutWhenThePeerNeverWritesAndRemovesItsOwnFile() {
        FileExchange side = server("run-3").withTimeout(SHORT);
        RecordingListener events = new RecordingListener();
        long start = System.nanoTime();
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER, events))
                .isInstanceOfSatisfying(ExchangeTimeoutException.class, e -> {
                    assertThat(e.step()).isEqualTo(ExchangeStep.WAIT_FOR_FILE);
                    assertThat(e.step().label()).isEqualTo("wait-for-file");
                });
        assertThat((System.nanoTime() - start) / 1_000_000).isBetween(300L, 5_000L);
        assertThat(side.localFile()).doesNotExist();
        assertThat(events.phases()).containsExactly(Phase.SENT, Phase.CLOSED);
    }

    @Test
    void aCorruptPeerFileIsATypedErrorNamingTheField() throws Exception {
        FileExchange side = server("run-4");
        byte[] corrupt = PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT);
        corrupt[11] = '-';
        writePrivate(side.peerFile(), corrupt);
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.field()).isEqualTo("separator"));
        assertThat(side.localFile()).doesNotExist();
    }

    @Test
    void aPeerFileOfTheWrongSizeIsRefusedBeforeReading() throws Exception {
        FileExchange side = server("run-5");
        writePrivate(side.peerFile(), new byte[1 << 20]);
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER))
                .isInstanceOfSatisfying(MalformedMessageException.class, e -> assertThat(e.field()).isEqualTo("size"))
                .hasMessageContaining("1048576 bytes");
    }

    /** OOB-12: a symlink is refused (O_NOFOLLOW). */
    @Test
    void aSymlinkAsThePeerFileIsRefused() throws Exception {
        FileExchange side = server("run-6");
        Path elsewhere = Files.createDirectory(dir.resolve("elsewhere")).resolve("good.conn");
        writePrivate(elsewhere, PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT));
        Files.createSymbolicLink(side.peerFile(), elsewhere);
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER))
                .isInstanceOf(UnsafePeerFileException.class)
                .hasMessageContaining("symbolic link");
    }

    @Test
    void aDirectoryAsThePeerFileIsRefused() throws Exception {
        FileExchange side = server("run-7");
        Files.createDirectory(side.peerFile());
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER))
                .isInstanceOf(UnsafePeerFileException.class)
                .hasMessageContaining("not a regular file");
    }

    /** OOB-12: a group- or world-readable file is refused: it holds capabilities. */
    @Test
    void aPeerFileOthersCanReadIsRefused() throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        FileExchange side = server("run-8");
        Files.write(side.peerFile(), PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT));
        Files.setPosixFilePermissions(side.peerFile(), PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> side.exchange(TestInfos.SERVER))
                .isInstanceOf(UnsafePeerFileException.class)
                .hasMessageContaining("0600");
    }

    /** OOB-12: a stale file of another run (another session nonce) is never read. */
    @Test
    void aFileFromAnotherSessionIsNeverRead() throws Exception {
        writePrivate(server("old-run").peerFile(), PingpongTextCodec.INSTANCE.encode(TestInfos.CLIENT));
        assertThatThrownBy(() -> server("new-run").withTimeout(SHORT).exchange(TestInfos.SERVER))
                .isInstanceOf(ExchangeTimeoutException.class);
    }

    /** OOB-12: a rerun with the same session finds no stale data. */
    @Test
    void aRerunWithTheSameSessionFindsNoStaleData() throws Exception {
        Future<ConnInfo> atServer = threads.submit(() -> server("same").exchange(TestInfos.SERVER));
        client("same").exchange(TestInfos.CLIENT);
        atServer.get(10, TimeUnit.SECONDS);

        assertThatThrownBy(() -> client("same").withTimeout(SHORT).exchange(TestInfos.CLIENT))
                .isInstanceOf(ExchangeTimeoutException.class);
    }

    @Test
    void worksWithTheBinaryCodecToo() throws Exception {
        Future<ConnInfo> atServer = threads.submit(() -> server("bin").withCodec(SeedBinaryCodec.INSTANCE).exchange(TestInfos.SERVER));
        assertThat(client("bin").withCodec(SeedBinaryCodec.INSTANCE).exchange(TestInfos.CLIENT)).isEqualTo(TestInfos.SERVER);
        assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
    }

    @Test
    void thePerftestCodecCarriesABufferThroughTheFiles() throws Exception {
        ConnInfo exposing = TestInfos.SERVER.withBuffer(new RemoteBuffer(0x7f0000001000L, 0x1234));
        Future<ConnInfo> atServer = threads.submit(() -> server("keys").withCodec(PerftestKeyCodec.GID).exchange(exposing));
        ConnInfo got = client("keys").withCodec(PerftestKeyCodec.GID).exchange(TestInfos.CLIENT);
        assertThat(got.buffer()).isEqualTo(new RemoteBuffer(0x7f0000001000L, 0x1234));
        assertThat(got).isEqualTo(exposing);
        assertThat(atServer.get(10, TimeUnit.SECONDS)).isEqualTo(TestInfos.CLIENT);
    }

    @Test
    void theDefaultTextRefusesToDropABufferAndLeavesNoFile() {
        ConnInfo exposing = TestInfos.CLIENT.withBuffer(new RemoteBuffer(0x1000, 7));
        assertThatThrownBy(() -> client("nokeys").exchange(exposing)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rc_pingpong text");
        assertThat(client("nokeys").localFile()).doesNotExist();
    }

    @Test
    void refusesNamesThatCouldEscapeTheDirectoryOrCollide() {
        for (String session : new String[] {"", "../x", "a/b", ".hidden", "x".repeat(65), "a b"}) {
            assertThatThrownBy(() -> FileExchange.of(dir, session, "a", "b"))
                    .isInstanceOfSatisfying(InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("session"));
        }
        assertThatThrownBy(() -> FileExchange.of(dir, "s", "a.b", "c"))
                .isInstanceOfSatisfying(InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("role"));
        assertThatThrownBy(() -> FileExchange.of(dir, "s", "a", "a"))
                .isInstanceOfSatisfying(InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("role"));
    }

    private static void writePrivate(Path p, byte[] content) throws IOException {
        Files.write(p, content);
        if (p.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(p, Set.copyOf(PosixFilePermissions.fromString("rw-------")));
        }
    }
}
