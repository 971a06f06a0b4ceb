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
    public PeerConfig {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(mtu, "mtu");
    }

    /**
     * Parses {@code key=value} lines: {@code lid}, {@code qpn}, {@code psn}, {@code gid} and
     * optionally {@code mtu}. See {@link PeerConfigParser} for the exact rules.
     */
    public static PeerConfig parse(CharSequence text) {
        return PeerConfigParser.parse(text);
    }
}
