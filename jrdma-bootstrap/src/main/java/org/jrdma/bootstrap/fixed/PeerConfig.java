package org.jrdma.bootstrap.fixed;

import java.util.Objects;
import java.util.Optional;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.verbs.Mtu;

/**
 * A peer described by configuration rather than learned over a channel.
 *
 * @param peer the peer's connection info
 * @param mtu  the path MTU to use with it, when the configuration names one
 */
public record PeerConfig(ConnInfo peer, Optional<Mtu> mtu) {
    /**
     * Checks that both are present.
     *
     * @throws NullPointerException if {@code peer} or {@code mtu} is null
     */
    public PeerConfig {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(mtu, "mtu");
    }

    /**
     * Parses {@code key=value} lines: {@code lid}, {@code qpn}, {@code psn}, {@code gid},
     * optionally {@code mtu}, and optionally together {@code rkey} and {@code vaddr} (the
     * peer's buffer, {@link ConnInfo#buffer}). See {@link PeerConfigParser} for the exact rules.
     *
     * @param text the configuration
     * @return the peer it describes
     * @throws org.jrdma.bootstrap.MalformedMessageException naming the key or line that is wrong
     */
    public static PeerConfig parse(CharSequence text) {
        return PeerConfigParser.parse(text);
    }
}
