package org.jrdma.soft;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.Reth;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QueuePair;

/**
 * A hand-made RoCEv2 peer (the catalogue's H1/H3 harness, on real UDP): a socket on its own
 * 127.77.x.y port 4791 that a soft device's RC QP is connected to as its genuine peer, so the
 * test crafts requests the verbs API would never let it post (a READ of 2^31 + 1 bytes, any
 * rkey) and reads the responder's answers off the wire.
 */
final class WirePeer implements AutoCloseable {
    static final int READ_REQUEST = 0x0C;
    static final int READ_RESPONSE_ONLY = 0x10;
    static final int ACKNOWLEDGE = 0x11;
    /** The QPN the peer claims; nothing checks it but the responder's replies carry it. */
    static final int PEER_QPN = 0x00C0DE;

    final SoftDevice device;
    final Context ctx;
    final ProtectionDomain pd;
    final QueuePair qp;
    private final CompletionQueue cq;
    private final DatagramChannel channel;
    private final InetAddress peerIp;
    private final InetSocketAddress target;
    private final Icrc icrc = new Icrc();
    private final byte[] rx = new byte[9000];
    private int psn;

    WirePeer(String name) throws IOException {
        device = FreshDevices.fresh(name);
        peerIp = FreshDevices.fresh(name + "_peer").spec().address(); // a free address, never opened as a device
        channel = DatagramChannel.open().bind(new InetSocketAddress(peerIp, 4791));
        channel.socket().setSoTimeout(5_000);
        ctx = device.open();
        pd = ctx.allocPd();
        cq = ctx.createCq(16, null);
        qp = pd.createQp(new QpInitAttr().cq(cq).cap(new QpCap(4, 4, 1, 1, 0)));
        target = ((SoftContext) ctx).hca().localAddress();
        connect();
    }

    /** (Re)connects the device's QP to this peer: RESET → INIT → RTR → RTS, expecting PSN {@link #psn}. */
    void connect() {
        qp.modify(new QpAttr().state(QpState.RESET));
        qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(RcPair.REMOTE_ALL));
        qp.modify(new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).destQpNum(PEER_QPN).rqPsn(psn)
                .maxDestRdAtomic(4).minRnrTimer(12).ahAttr(AhAttr.roce(Gid.of(peerIp), 0, 1)));
        qp.modify(new QpAttr().state(QpState.RTS).sqPsn(0x100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(4));
    }

    /** Sends a READ request at the expected PSN; the PSN moves on as the responder's would. */
    void sendRead(long va, int rkey, int dmaLength) throws IOException {
        ByteBuffer pkt = ByteBuffer.allocate(Bth.LENGTH + Reth.LENGTH + 4);
        new Bth().wrap(pkt, 0).clear().opcode(READ_REQUEST).pkey(Bth.DEFAULT_PKEY).destQp(qp.qpNum()).ackReq(true)
                .psn(psn);
        new Reth().wrap(pkt, Bth.LENGTH).va(va).rkey(rkey).dmaLength(dmaLength);
        int port = ((InetSocketAddress) channel.getLocalAddress()).getPort();
        icrc.writeIpv4(Ipv4.of(peerIp), Ipv4.of(target.getAddress()), port, target.getPort(), pkt, 0,
                pkt.capacity());
        channel.send(pkt, target);
        psn = (psn + Math.max(1, (int) ((Integer.toUnsignedLong(dmaLength) + 1023) / 1024))) & 0xFFFFFF;
    }

    /** The next packet from the device: its opcode (byte 0) and, for an ACKNOWLEDGE, the AETH syndrome. */
    Reply receive() throws IOException {
        DatagramPacket p = new DatagramPacket(rx, rx.length);
        try {
            channel.socket().receive(p);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer from the responder in 5 s", e);
        }
        int opcode = rx[0] & 0xFF;
        int syndrome = opcode == ACKNOWLEDGE || opcode == READ_RESPONSE_ONLY ? rx[Bth.LENGTH] & 0xFF : -1;
        return new Reply(opcode, syndrome, p.getLength());
    }

    record Reply(int opcode, int syndrome, int length) {
    }

    @Override
    public void close() throws IOException {
        ctx.close();
        channel.close();
    }
}
