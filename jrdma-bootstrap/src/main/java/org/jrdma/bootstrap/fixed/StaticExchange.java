package org.jrdma.bootstrap.fixed;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.PingpongTextCodec;
import org.jrdma.verbs.Mtu;

/**
 * The peer's info is known in advance (given in code, a config file or a command-line string);
 * {@link #exchange} does no I/O and returns it, after refusing a self-loop (OOB-13). There is no
 * channel, so the CLOSED event follows RECEIVED at once.
 */
public final class StaticExchange implements Exchange {
    private final PeerConfig config;

    private StaticExchange(PeerConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * An exchange that returns {@code peer}, with no MTU.
     *
     * @param peer the peer's connection info
     * @return the exchange
     */
    public static StaticExchange of(ConnInfo peer) {
        return new StaticExchange(new PeerConfig(peer, Optional.empty()));
    }

    /**
     * An exchange that returns the configured peer.
     *
     * @param config the peer and, optionally, the MTU
     * @return the exchange
     */
    public static StaticExchange of(PeerConfig config) {
        return new StaticExchange(config);
    }

    /**
     * An exchange from {@code key=value} text; see {@link PeerConfigParser}.
     *
     * @param text the configuration
     * @return the exchange
     * @throws org.jrdma.bootstrap.MalformedMessageException naming the key or line that is wrong
     */
    public static StaticExchange fromConfigText(CharSequence text) {
        return of(PeerConfig.parse(text));
    }

    /**
     * An exchange from a UTF-8 config file, at most {@value PeerConfigParser#MAX_CHARS} bytes.
     *
     * @param file the file
     * @return the exchange
     * @throws org.jrdma.bootstrap.ExchangeIoException if it cannot be read
     * @throws org.jrdma.bootstrap.MalformedMessageException if it is too large, not UTF-8 or wrong
     */
    public static StaticExchange fromConfigFile(Path file) {
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(PeerConfigParser.MAX_CHARS + 1);
        } catch (IOException e) {
            throw new ExchangeIoException("read peer config " + file, e);
        }
        if (bytes.length > PeerConfigParser.MAX_CHARS) {
            throw new MalformedMessageException("size", file + " is larger than " + PeerConfigParser.MAX_CHARS + " bytes");
        }
        try {
            CharSequence text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return fromConfigText(text);
        } catch (CharacterCodingException e) {
            throw new MalformedMessageException("encoding", file + " is not UTF-8", e);
        }
    }

    /**
     * An exchange from rc_pingpong's 51-character text, e.g.
     * {@code 0000:000012:e3de62:00000000000000000000ffff0a4d0003}.
     *
     * @param text the text, without the NUL
     * @return the exchange
     * @throws org.jrdma.bootstrap.MalformedMessageException naming the field that is wrong
     */
    public static StaticExchange fromPingpongText(CharSequence text) {
        return of(PingpongTextCodec.INSTANCE.parseText(text));
    }

    /**
     * The peer this exchange returns, and the MTU if one was configured.
     *
     * @return the configuration
     */
    public PeerConfig config() {
        return config;
    }

    /**
     * The configured path MTU.
     *
     * @return the MTU, or empty when the configuration names none
     */
    public Optional<Mtu> mtu() {
        return config.mtu();
    }

    @Override
    public ConnInfo exchange(ConnInfo local, ExchangeListener events) {
        Objects.requireNonNull(local, "local");
        try {
            ConnInfo peer = config.peer();
            if (peer.qpn() == local.qpn() && peer.gid().equals(local.gid())) {
                throw new MalformedMessageException("qpn", String.format(
                        "the peer is this QP itself (QPN 0x%06x, GID %s): a self-loop", peer.qpn(), peer.gid()));
            }
            events.emit(Phase.RECEIVED, "static");
            return peer;
        } finally {
            events.emit(Phase.CLOSED, "");
        }
    }
}
