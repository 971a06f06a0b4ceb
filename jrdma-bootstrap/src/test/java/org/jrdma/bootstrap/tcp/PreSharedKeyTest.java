package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jrdma.bootstrap.KeyFileException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key file rules of --psk-file: private to its owner, 16..4096 bytes, never printed (OOB-16). */
class PreSharedKeyTest {
    @TempDir
    Path dir;

    private Path file(String content, String mode) throws Exception {
        Path p = Files.createTempFile(dir, "k", ".psk");
        Files.writeString(p, content, StandardCharsets.ISO_8859_1);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(mode));
        return p;
    }

    @Test
    void aPrivateFileIsTheKeyLessOneTrailingNewline() throws Exception {
        assertThat(PreSharedKey.load(file("0123456789abcdefXYZ\n", "rw-------")).bytes())
                .isEqualTo("0123456789abcdefXYZ".getBytes(StandardCharsets.US_ASCII));
        assertThat(PreSharedKey.load(file("0123456789abcdefXYZ\r\n", "r--------")).bytes()).hasSize(19);
    }

    @Test
    void aFileOthersMayReadOrWriteIsRefusedLikeSshDoes() throws Exception {
        for (String mode : new String[] {"rw-r-----", "rw--w----", "rw----r--", "rw-----w-"}) {
            Path p = file("secret-secret-secret-1", mode);
            assertThatThrownBy(() -> PreSharedKey.load(p)).as(mode).isInstanceOf(KeyFileException.class)
                    .hasMessageContaining(p.toString()).hasMessageContaining("chmod 600").hasMessageNotContaining("secret");
        }
    }

    @Test
    void tooShortTooLongMissingAndDirectoriesAreRefused() throws Exception {
        assertThatThrownBy(() -> PreSharedKey.load(file("short\n", "rw-------"))).isInstanceOf(KeyFileException.class)
                .hasMessageContaining("5 key bytes");
        assertThatThrownBy(() -> PreSharedKey.load(file("x".repeat(5000), "rw-------"))).isInstanceOf(KeyFileException.class);
        assertThatThrownBy(() -> PreSharedKey.load(dir.resolve("absent"))).isInstanceOf(KeyFileException.class)
                .hasMessageContaining("absent: no such file (create one: "); // it said "cannot be read: <the path>"
        Path sub = Files.createDirectory(dir.resolve("d"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        assertThatThrownBy(() -> PreSharedKey.load(sub)).isInstanceOf(KeyFileException.class).hasMessageContaining("not a regular file");
    }

    @Test
    void oob16TheKeyIsNeverPrinted() {
        PreSharedKey k = PreSharedKey.of("0123456789abcdef-secret".getBytes(StandardCharsets.US_ASCII));
        assertThat(k.toString()).isEqualTo("PreSharedKey[23 bytes]");
        assertThat(TcpSecurity.psk(k).toString()).doesNotContain("secret");
    }
}
