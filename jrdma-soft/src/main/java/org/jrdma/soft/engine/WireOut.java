package org.jrdma.soft.engine;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.TxBatch;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.memory.Gather;
import org.jrdma.soft.transport.PacketOut;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.soft.transport.UdDestination;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.AtomicAckEth;
import org.jrdma.soft.wire.AtomicEth;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.Deth;
import org.jrdma.soft.wire.ExtHeader;
import org.jrdma.soft.wire.Icrc;
import org.jrdma.soft.wire.Ieth;
import org.jrdma.soft.wire.ImmDt;
import org.jrdma.soft.wire.Opcode;
import org.jrdma.soft.wire.OpcodeTable;
import org.jrdma.soft.wire.Pad;
import org.jrdma.soft.wire.Reth;

/**
 * Builds RoCEv2 packets end to end in one batch buffer ({@link TxBatch}) and sends them when
 * the engine's pass ends ({@link #flush()}), or sooner when the batch is full. The opcode's row
 * in the opcode table says which extension headers follow the BTH and where; the payload and
 * its pad follow them. The ICRC is computed for the IP header the kernel will write — the port's
 * endpoint knows which ({@link RoceEndpoint}: IPv4 with DF and the ID the batch gives the packet,
 * 0 alone or i as segment i of a GSO run, see {@link UdpDatagrams} and {@link TxBatch}; or IPv6)
 * — the two addresses, UDP 4791 → 4791 and the lengths. It counts on the device counters when
 * the batch has left; it does not know the device.
 */
final class WireOut implements PacketOut {
    private static final int MAX_PACKET = 8192;
    private static final int READ_REQUEST = 0x0C;
    private static final int ACKNOWLEDGE = 0x11;
    private static final int ATOMIC_ACKNOWLEDGE = 0x12;

    private final SoftPort port;
    private final RoceEndpoint local;
    private final Datagrams datagrams;
    private final Counters<QpCounter> counters;
    /** Room for {@link TxBatch#MAX_PACKETS} packets of a 4096-byte MTU with their headers. */
    private static final int BATCH_BYTES = TxBatch.MAX_PACKETS * 4224 + MAX_PACKET;
    private final TxBatch batch;
    private final ByteBuffer tx;
    private final MemorySegment txData;
    /** The QP each packet of the batch belongs to (its counters), by packet index. */
    private final TransportQp[] owners = new TransportQp[TxBatch.MAX_PACKETS];
    /** Where the packet being built starts in {@link #tx}. */
    private int base;
    private final Bth bth = new Bth();
    private final Reth reth = new Reth();
    private final ImmDt immDt = new ImmDt();
    private final Aeth aeth = new Aeth();
    private final AtomicEth atomicEth = new AtomicEth();
    private final AtomicAckEth atomicAckEth = new AtomicAckEth();
    private final Deth deth = new Deth();
    private final Ieth ieth = new Ieth();
    private final Icrc icrc = new Icrc();

    WireOut(SoftPort port, Counters<QpCounter> counters) {
        this.port = port;
        this.local = port.endpoint();
        this.datagrams = port.datagrams();
        this.counters = counters;
        this.batch = new TxBatch(BATCH_BYTES, datagrams.segments());
        this.tx = batch.buffer();
        this.txData = MemorySegment.ofBuffer(tx);
    }

    /** Writes the BTH and returns the opcode's row; the caller fills the extension headers. */
    private Opcode begin(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, int payload) {
        return begin(qp.destQpn(), opcode, psn, ackReq, solicited, payload);
    }

    private Opcode begin(int destQpn, int opcode, int psn, boolean ackReq, boolean solicited, int payload) {
        if (!batch.hasRoom(MAX_PACKET)) {
            flush();
        }
        base = batch.tail();
        bth.wrap(tx, base).clear().opcode(opcode).se(solicited).padCount(Pad.count(payload)).pkey(Bth.DEFAULT_PKEY)
                .destQp(destQpn).ackReq(ackReq).psn(psn);
        return OpcodeTable.get(opcode);
    }

    @Override
    public void sendUd(TransportQp qp, UdDestination dest, int destQpn, int qkey, int opcode, int psn, boolean solicited,
            int immData, Gather gather, int length) {
        Opcode op = begin(destQpn, opcode, psn, false, solicited, length);
        deth.wrap(tx, base + op.dethOffset()).qkey(qkey).srcQp(qp.qpn);
        if (op.has(ExtHeader.IMM_DT)) {
            immDt.wrap(tx, base + op.immDtOffset()).immediate(immData);
        }
        int pos = op.headerLength();
        if (length > 0) {
            gather.copyOut(0, txData, base + pos, length);
        }
        transmit(qp, dest.endpoint(), pad(pos + length, length));
    }

    @Override
    public void sendData(TransportQp qp, int opcode, int psn, boolean ackReq, boolean solicited, long va, int rkey,
            int dmaLength, int immData, Gather gather, long offset, int length) {
        Opcode op = begin(qp, opcode, psn, ackReq, solicited, length);
        if (op.has(ExtHeader.RETH)) {
            reth.wrap(tx, base + op.rethOffset()).va(va).rkey(rkey).dmaLength(dmaLength);
        }
        if (op.has(ExtHeader.IMM_DT)) {
            immDt.wrap(tx, base + op.immDtOffset()).immediate(immData);
        }
        if (op.has(ExtHeader.IETH)) {
            ieth.wrap(tx, base + op.iethOffset()).rkey(immData);
        }
        int pos = op.headerLength();
        if (length > 0) {
            gather.copyOut(offset, txData, base + pos, length);
        }
        transmit(qp, pad(pos + length, length));
    }

    @Override
    public void sendReadRequest(TransportQp qp, int psn, long va, int rkey, int length) {
        Opcode op = begin(qp, READ_REQUEST, psn, true, false, 0);
        reth.wrap(tx, base + op.rethOffset()).va(va).rkey(rkey).dmaLength(length);
        transmit(qp, op.headerLength());
    }

    @Override
    public void sendAtomic(TransportQp qp, int opcode, int psn, long va, int rkey, long swapAdd, long compare) {
        Opcode op = begin(qp, opcode, psn, true, false, 0);
        atomicEth.wrap(tx, base + op.atomicEthOffset()).va(va).rkey(rkey).swapAdd(swapAdd).compare(compare);
        transmit(qp, op.headerLength());
    }

    @Override
    public void sendReadResponse(TransportQp qp, int opcode, int psn, int msn, MemorySegment src, long srcOffset,
            int length) {
        Opcode op = begin(qp, opcode, psn, false, false, length);
        if (op.has(ExtHeader.AETH)) {
            aeth.wrap(tx, base + op.aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        }
        int pos = op.headerLength();
        if (length > 0) {
            MemorySegment.copy(src, srcOffset, txData, base + pos, length);
        }
        transmit(qp, pad(pos + length, length));
    }

    @Override
    public void sendAtomicAck(TransportQp qp, int psn, int msn, long original) {
        Opcode op = begin(qp, ATOMIC_ACKNOWLEDGE, psn, false, false, 0);
        aeth.wrap(tx, base + op.aethOffset()).syndrome(Aeth.ACK_SYNDROME).msn(msn);
        atomicAckEth.wrap(tx, base + op.atomicAckEthOffset()).originalValue(original);
        transmit(qp, op.headerLength());
    }

    @Override
    public void sendAck(TransportQp qp, int syndrome, int psn, int msn) {
        Opcode op = begin(qp, ACKNOWLEDGE, psn, false, false, 0);
        aeth.wrap(tx, base + op.aethOffset()).syndrome(syndrome).msn(msn);
        transmit(qp, op.headerLength());
    }

    /** Zeroes the pad bytes after a payload ending at {@code end} (from the packet's start); returns the new end. */
    private int pad(int end, int payload) {
        int pad = Pad.count(payload);
        for (int i = 0; i < pad; i++) {
            tx.put(base + end + i, (byte) 0);
        }
        return end + pad;
    }

    /** Appends the ICRC to the {@code headersAndPayload} bytes built so far and queues them for the QP's connected peer. */
    private void transmit(TransportQp qp, int headersAndPayload) {
        transmit(qp, qp.peer(), headersAndPayload);
    }

    /**
     * As above, to {@code to}: the connected peer or a UD destination. The packet joins the
     * batch, which says the IPv4 ID it leaves with (its index in a GSO run); the local endpoint
     * writes the ICRC for that ID over the pseudo-header of its family. A peer of the other
     * family cannot happen (modify_qp and create_ah check it) and is counted as a TX error.
     * The packet leaves at the next {@link #flush()}, which the engine runs at the end of a pass.
     */
    private void transmit(TransportQp qp, RoceEndpoint to, int headersAndPayload) {
        int length = headersAndPayload + Icrc.LENGTH;
        if (!port.isActive()) {
            counters.increment(QpCounter.PORT_DOWN_DROPS); // the cable is out: the packet is lost
            return;
        }
        int ipId = batch.nextId(to, length);
        if (!local.writeIcrc(icrc, to, ipId, tx, base, length)) {
            counters.increment(QpCounter.TX_ERRORS); // cannot happen: see above
            return;
        }
        owners[batch.count()] = qp;
        batch.add(to, length);
        port.noteTx(); // before the send: "the first packet leaves" no earlier than this
        port.captureSent(to, ipId, tx, base, length);
    }

    /**
     * Sends the batch: in one call where the channel can ({@link Datagrams#send(TxBatch)}), and
     * counts each packet. A run the kernel would not segment goes again packet by packet, each
     * with the ICRC for ID 0, and runs are not made again on this port.
     */
    void flush() {
        int n = batch.count();
        if (n == 0) {
            return;
        }
        datagrams.send(batch);
        for (int i = 0; i < n; i++) {
            TransportQp qp = owners[i];
            owners[i] = null;
            TxBatch.Result r = batch.result(i);
            if (r == TxBatch.Result.NOT_SEGMENTED) {
                r = resendAlone(i);
            }
            count(qp, r, batch.length(i));
        }
        batch.clear();
    }

    private TxBatch.Result resendAlone(int i) {
        if (batch.segments()) {
            batch.stopSegmenting();
            System.getLogger(WireOut.class.getName()).log(System.Logger.Level.INFO,
                    "{0}: the kernel would not segment a run of packets (UDP GSO); sending them one by one", local);
        }
        RoceEndpoint to = batch.peer(i);
        int at = batch.offset(i);
        int length = batch.length(i);
        local.writeIcrc(icrc, to, 0, tx, at, length);
        tx.clear();
        tx.position(at).limit(at + length);
        try {
            return datagrams.send(tx, to.socketAddress()) ? TxBatch.Result.SENT : TxBatch.Result.QUEUE_FULL;
        } catch (IOException e) {
            return TxBatch.Result.FAILED;
        } finally {
            tx.clear();
        }
    }

    private void count(TransportQp qp, TxBatch.Result r, int length) {
        switch (r) {
            case SENT -> {
                qp.counters.increment(QpCounter.SENT_PACKETS);
                qp.counters.add(QpCounter.SENT_BYTES, length);
                counters.increment(QpCounter.SENT_PACKETS);
                counters.add(QpCounter.SENT_BYTES, length);
            }
            case QUEUE_FULL -> counters.increment(QpCounter.TX_QUEUE_FULL);
            // A send that fails is a lost packet: the transport's retransmission recovers it.
            default -> counters.increment(QpCounter.TX_ERRORS);
        }
    }
}
