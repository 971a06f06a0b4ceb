package org.jrdma.bootstrap.tcp;

import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.ConnInfoCodec;
import org.jrdma.bootstrap.ExchangeEvent.Phase;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.MalformedMessageException;

/**
 * The conversation on a connected socket, the same on both sides: write our message, read the
 * peer's, then rc_pingpong's "done". Writing first on both sides works with a peer that sends
 * first (rc_pingpong's client) and with one that reads first (its server), because one
 * 52-byte message always fits the socket buffers (DESIGN "Bootstrap is strict").
 */
final class Handshake {

    enum Role { CLIENT, SERVER }

    private Handshake() {
    }

    static ConnInfo run(Link channel, Role role, ConnInfo local, TcpOptions options, ExchangeListener listener) {
        ConnInfoCodec codec = options.codec();
        String what = "peer's " + codec.name() + " message";
        // Both buffers are sized by the codec before the peer says anything (OOB-02).
        byte[] mine = codec.encode(local);
        byte[] theirs = new byte[codec.size()];

        channel.writeAll(mine, options.ioTimeout(), "our " + codec.name() + " message");
        listener.emit(Phase.SENT, mine.length + " bytes");
        channel.readExactly(theirs, options.ioTimeout(), what, PlainPeerCheck.of(codec));
        ConnInfo peer = checkBinding(codec.decode(theirs), channel, options);

        if (options.doneTerminator()) {
            if (role == Role.CLIENT) {
                channel.writeAll(Done.bytes(), options.ioTimeout(), "\"done\""); // rc_pingpong's client sends it
            } else {
                channel.readExactly(new byte[Done.LENGTH], options.ioTimeout(), "peer's \"done\"", Done::check);
            }
        }
        listener.emit(Phase.RECEIVED, theirs.length + " bytes");
        return peer;
    }

    /**
     * OOB-09 strict mode: the GID must be the peer's own address, else a peer (or a forger of its
     * message) could direct our RDMA writes at a third host. Checked before the QP is touched.
     */
    static ConnInfo checkBinding(ConnInfo peer, Link link, TcpOptions options) {
        if (!options.bindGidToPeer()) {
            return peer;
        }
        java.net.InetAddress address = link.peerInetAddress();
        if (address == null) {
            throw new MalformedMessageException("gid", "the exchange's peer address is unknown, so the GID cannot be bound to it");
        }
        org.jrdma.verbs.Gid expected = org.jrdma.verbs.Gid.of(address);
        if (!expected.equals(peer.gid())) {
            throw new MalformedMessageException("gid", peer.gid() + " is not the address the exchange came from ("
                    + HostName.text(address) + ", GID " + expected + "): strict mode binds the data path to that peer");
        }
        return peer;
    }
}
