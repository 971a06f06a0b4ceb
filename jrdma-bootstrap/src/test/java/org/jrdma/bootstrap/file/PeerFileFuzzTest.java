package org.jrdma.bootstrap.file;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.bootstrap.SeedBinaryCodec;
import org.jrdma.testkit.fuzz.Fuzz;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzzing the file exchange's format (issue 6 item 7; OOB-12, OOB-17): a peer file of any size
 * and content, owner-only as the exchange writes it, is read and decoded to the peer it holds
 * or refused with {@link MalformedMessageException}; the reader never returns more than the
 * codec's size, and a valid file round-trips. Each case writes a real file, so CI runs hundreds.
 */
class PeerFileFuzzTest {
    private static final List<ConnInfoCodec> CODECS = List.of(PingpongTextCodec.INSTANCE, SeedBinaryCodec.INSTANCE);

    @Test
    void anyFileContentReadsAndDecodesOrFailsTyped(@TempDir Path dir) {
        Path file = dir.resolve("jrdma-fuzz.peer.conn");
        Fuzz.run("peer file", 300, 100, 0xF11E, c -> {
            Random r = c.random();
            ConnInfoCodec codec = CODECS.get(r.nextInt(CODECS.size()));
            ConnInfo info = randomInfo(r);
            byte[] valid = codec.encode(info);
            byte[] content = c.input(switch (r.nextInt(3)) {
                case 0 -> valid;
                case 1 -> Fuzz.mutate(valid, r);
                default -> Fuzz.randomBytes(r, r.nextInt(2 * codec.size() + 2));
            });
            AtomicFileWriter.write(file, content);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            try {
                byte[] read = PeerFileReader.readIfPresent(file, codec);
                assertThat(read).isEqualTo(content).hasSize(codec.size());
                ConnInfo decoded = codec.decode(read);
                if (content == valid) {
                    assertThat(decoded).isEqualTo(info);
                }
            } catch (MalformedMessageException typed) {
                assertThat(typed.field()).isNotBlank();
                assertThat(content).isNotSameAs(valid);
            }
        });
    }

    private static ConnInfo randomInfo(Random r) {
        byte[] gid = new byte[16];
        r.nextBytes(gid);
        gid[0] = (byte) (gid[0] == (byte) 0xFF ? 0 : gid[0]);
        return new ConnInfo(r.nextInt(0x10000), 2 + r.nextInt(0xFFFFFE - 1), r.nextInt(0x1000000), Gid.of(gid));
    }
}
