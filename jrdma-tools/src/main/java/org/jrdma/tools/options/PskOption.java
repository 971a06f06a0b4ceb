package org.jrdma.tools.options;

import java.nio.file.Path;
import org.jrdma.bootstrap.tcp.PreSharedKey;
import org.jrdma.bootstrap.tcp.TcpSecurity;
import picocli.CommandLine.Option;

/**
 * {@code --psk-file FILE}, shared by demo and pingpong: the TCP exchange authenticated with a
 * pre-shared key (AUTH-01, README "Authenticated exchange"), which rc_pingpong does not have.
 */
public final class PskOption {
    @Option(names = "--psk-file", paramLabel = "FILE", description = "Authenticate the TCP exchange with the pre-shared key in FILE"
            + " (mode 600; README \"Authenticated exchange\"); both sides need it. Not rc_pingpong's wire format.")
    Path pskFile;

    public boolean given() {
        return pskFile != null;
    }

    /**
     * The exchange's security: plain without the flag, else the key, read (and its file's mode
     * checked) now, so that a bad key file is said before anything is set up.
     */
    public TcpSecurity security() {
        return pskFile == null ? TcpSecurity.plain() : TcpSecurity.psk(PreSharedKey.load(pskFile));
    }
}
