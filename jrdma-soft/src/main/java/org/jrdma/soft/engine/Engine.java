package org.jrdma.soft.engine;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.RxBatch;
import org.jrdma.soft.transport.Completer;
import org.jrdma.soft.transport.Counters;
import org.jrdma.soft.transport.QpCounter;
import org.jrdma.soft.transport.Requester;
import org.jrdma.soft.transport.Responder;
import org.jrdma.soft.transport.SourcePin;
import org.jrdma.soft.transport.StallWarnings;
import org.jrdma.soft.transport.TransportQp;
import org.jrdma.soft.transport.UdResponder;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.DropReason;
import org.jrdma.soft.wire.IcrcVerifier;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.soft.wire.Transport;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;

/**
 * The device's receive loop and stage driver. Per pass: up to {@link #RX_BURST} datagrams
 * are validated (rxe_recv.c order: headers, QP, state, source, P_Key, then the ICRC) and
 * dispatched — requests to the responder, acknowledgements to the completer — then each QP's
 * timers fire and its requester sends up to {@link #TX_BURST} packets. One receive buffer and
 * one set of flyweights serve every packet; nothing allocates per packet.
 *
 * <p>It works on the device's parts — the port it receives from and sends through, the QP
 * table, the device counters — never on the device; {@link EngineRunner} decides who runs it.
 */
final class Engine implements EngineRunner.Pass {
    static final int RX_BURST = 64;
    static final int TX_BURST = 32;

    private final SoftPort port;
    private final Datagrams datagrams;
    /** The device's endpoint: packets arrive from their source to it. */
    private final RoceEndpoint local;
    private final QpTable<EngineQp> qps;
    private final Counters<QpCounter> counters;
    private final Drops drops;
    private final SourceCheck sourceCheck;
    private final NanoClock clock;
    /**
     * Reads per receive call, each up to 64 KiB: with GRO a read holds a peer's whole GSO run
     * (on loopback it crosses unsegmented), so a few slots take a burst of bulk data.
     */
    static final int RX_READS = 8;
    private final RxBatch rx = new RxBatch(RX_READS, RxBatch.MAX_READ);
    private final ByteBuffer rxBuffer = rx.buffer();
    private final MemorySegment rxData = MemorySegment.ofBuffer(rxBuffer);
    private final RxPacket packet = new RxPacket();
    /**
     * Our peers send IPv4 ID 0; rxe and RoCE NICs send other IDs but always DF. Solving for
     * the ID with DF required accepts all of them and misses no single-bit error in packets up
     * to 26 KB; a random corruption passes with probability 2^-16 (see {@link IcrcVerifier}).
     */
    private final IcrcVerifier icrc = new IcrcVerifier(IcrcVerifier.Ipv4IdPolicy.ANY_ID_DF);
    private final WireOut out;
    private final Requester requester;
    private final Responder responder;
    private final Completer completer;
    private final UdResponder udResponder = new UdResponder();
    /** The QPs this engine's passes visit. */
    private final ActiveQps active = new ActiveQps();
    /** {@link ActiveQps#count} at the end of the last pass (diagnostics; read without the lock). */
    private volatile int activeQps;
    /** How many QPs the last pass visited after its receive (diagnostics; read without the lock). */
    private volatile int lastPassVisits;

    Engine(String deviceName, SoftPort port, QpTable<EngineQp> qps, Counters<QpCounter> counters, Drops drops,
            SourceCheck sourceCheck, NanoClock clock) {
        this.port = port;
        this.datagrams = port.datagrams();
        this.local = port.endpoint();
        this.qps = qps;
        this.counters = counters;
        this.drops = drops;
        this.sourceCheck = sourceCheck;
        this.clock = clock;
        this.out = new WireOut(port, counters);
        this.completer = new Completer(new StallWarnings(deviceName));
        this.requester = new Requester(out);
        this.responder = new Responder(new CoalescingAcks(out));
    }

    int doWork() throws IOException {
        return doWork(false);
    }

    /**
     * One pass. {@code sendFirst} (a pass run by post_send) lets the requesters send before
     * the receive system call, which on an idle socket only says "nothing": the new request is
     * on the wire that much sooner.
     */
    @Override
    public int doWork(boolean sendFirst) throws IOException {
        responder.beginPass();
        active.takeDoorbells();
        int work = 0;
        if (sendFirst) {
            long now = clock.nanoTime();
            for (int i = 0, n = active.count(); i < n; i++) {
                EngineQp qp = active.get(i);
                synchronized (qp) {
                    TransportQp t = qp.transport();
                    if (t.state() == QpState.RTS || t.state() == QpState.SQD) {
                        work += requester.doWork(t, now, TX_BURST);
                    }
                }
            }
            out.flush(); // the new request leaves before the receive
        }
        work += receive();
        long now = clock.nanoTime();
        active.beginVisits();
        int visits = active.count();
        for (int i = 0; i < visits; i++) {
            EngineQp qp = active.get(i);
            int done = 0;
            long deadline = 0;
            synchronized (qp) {
                TransportQp t = qp.transport();
                QpState s = t.state();
                if (s != QpState.RESET && s != QpState.INIT && s != QpState.ERR) {
                    done += completer.onTimers(t, now);
                    done += responder.doWork(t, TX_BURST);
                    done += requester.doWork(t, now, TX_BURST);
                    deadline = t.nextDeadline();
                }
            }
            // Kept while it works or waits on a timer; dropped QPs come back by a doorbell or a packet.
            active.visited(i, done > 0 || deadline != 0, deadline);
            work += done;
        }
        active.endVisits();
        lastPassVisits = visits; // published at the end of the pass, before it returns
        activeQps = active.count();
        // ACKs at the end of the pass after the one that received the requests: one per QP
        // however many requests came, after whatever the application answered in between
        // (CoalescingAcks). A QP that is destroyed first sends its own (flushAck).
        work += responder.flushAcks();
        out.flush();
        return work;
    }

    /**
     * How many QPs were active at the end of the last pass: those the next pass visits, besides
     * those whose doorbell rings meanwhile (any thread).
     */
    int activeQps() {
        return activeQps;
    }

    /** How many QPs the last pass visited after its receive (any thread). */
    int lastPassVisits() {
        return lastPassVisits;
    }

    /** {@code qp} has work (a post, a modify): the next pass visits it. Any thread. */
    void ring(EngineQp qp) {
        active.ring(qp);
    }

    /** Sends every held ACK now (the device is stopping; caller holds the engine lock). */
    @Override
    public void flushAllAcks() {
        responder.flushAllAcks();
        out.flush();
    }

    /** Whether an ACK is being held for a later pass (read by the engine thread without the lock). */
    @Override
    public boolean acksHeld() {
        return responder.acksHeld();
    }

    /** rxe check_type_state: RC QPs take RC opcodes only, UC QPs UC, UD and GSI QPs UD. */
    private static boolean accepts(QpType type, Transport transport) {
        return switch (type) {
            case RC -> transport == Transport.RC;
            case UC -> transport == Transport.UC;
            case UD, GSI -> transport == Transport.UD;
            default -> false;
        };
    }

    /** Sends the ACK {@code qp} holds, before the QP goes away (caller holds the engine lock). */
    void flushAck(EngineQp qp) {
        synchronized (qp) {
            responder.flushAck(qp.transport());
        }
        out.flush();
    }

    /**
     * Nanoseconds until the earliest armed timer of any QP (Long.MAX_VALUE when none), as of
     * the last pass: only a pass arms or moves a timer, and only active QPs have one.
     */
    @Override
    public long nanosUntilNextTimer(long now) {
        return active.nanosUntilNextTimer(now);
    }

    /**
     * Takes what is waiting, a batch of reads per call ({@link Datagrams#receive(RxBatch)}), and
     * handles every datagram of every read — a coalesced (GRO) read holds several — until
     * {@link #RX_BURST} datagrams or the socket is drained.
     */
    private int receive() throws IOException {
        int n = 0;
        while (n < RX_BURST) {
            int reads = datagrams.receive(rx);
            for (int i = 0; i < reads; i++) {
                InetSocketAddress from = rx.sender(i);
                for (int k = 0, d = rx.datagrams(i); k < d; k++) {
                    n++;
                    handle(from, rx.datagramOffset(i, k), rx.datagramLength(i, k));
                }
            }
            if (reads < rx.slots()) {
                break; // nothing more was waiting
            }
        }
        return n;
    }

    /** The last datagram's source, as the socket gave it and as an endpoint. */
    private InetSocketAddress lastFrom;
    private RoceEndpoint lastSource;

    /**
     * The endpoint a datagram came from. The socket hands back the same object while the sender
     * does not change (the JDK caches it), so the endpoint is made only when the socket made a
     * new address too; a source equal to the last one is not made again either.
     */
    private RoceEndpoint source(InetSocketAddress from) {
        if (from != lastFrom) {
            if (!from.equals(lastFrom)) {
                lastSource = RoceEndpoint.of(from);
            }
            lastFrom = from;
        }
        return lastSource;
    }

    /**
     * A packet reached {@code t}: its packets and bytes (the UDP payload, as the device counts
     * them). Only the per-QP side: the device counted the datagram when it arrived, drops included.
     */
    private static void countReceived(TransportQp t, int length) {
        t.counters.increment(QpCounter.RCVD_PACKETS);
        t.counters.add(QpCounter.RCVD_BYTES, length);
    }

    private void handle(InetSocketAddress from, int at, int length) {
        if (!port.isActive()) {
            counters.increment(QpCounter.PORT_DOWN_DROPS);
            return;
        }
        counters.increment(QpCounter.RCVD_PACKETS);
        counters.add(QpCounter.RCVD_BYTES, length);
        RoceEndpoint source = source(from);
        port.captureReceived(source, rxBuffer, at, length);
        DropReason reason = packet.wrap(rxBuffer, at, length);
        if (reason != DropReason.NONE) {
            drops.drop(reason);
            return;
        }
        Bth bth = packet.bth();
        // QPN 1 finds the GSI QP only while one exists; without it (and for QPN 0, which is never
        // created) the packet is dropped like any to an unknown QP (RELIABILITY-SECURITY REL-04).
        EngineQp qp = qps.get(bth.destQp());
        if (qp == null) {
            drops.drop(DropReason.UNKNOWN_QPN);
            return;
        }
        if (!accepts(qp.qpType(), packet.opcode().transport())) {
            drops.drop(DropReason.WRONG_TRANSPORT);
            return;
        }
        if (bth.pkey() != Bth.DEFAULT_PKEY) {
            drops.drop(DropReason.BAD_PKEY);
            return;
        }
        if (!source.verifyIcrc(icrc, local, rxBuffer, at, length)) {
            drops.drop(DropReason.BAD_ICRC);
            return;
        }
        active.add(qp); // whatever the packet does, the QP's stages look at it in this pass
        synchronized (qp) {
            TransportQp t = qp.transport();
            if (t.datagram) {
                if (!t.state().receives()) {
                    drops.drop(DropReason.BAD_QP_STATE);
                    return;
                }
                countReceived(t, length);
                DropReason dropped = udResponder.onDatagram(t, packet, rxData, source, local, icrc.lastIpId(),
                        icrc.lastIpFlags(), length);
                if (dropped != DropReason.NONE) {
                    drops.drop(dropped);
                }
                return;
            }
            Operation op = packet.opcode().operation();
            boolean request = op.isRequest();
            QpState s = t.state();
            // rxe: requests need the responder ready (RTR and later); responses need RTS/SQD.
            if (request ? !s.receives() : !(s == QpState.RTS || s == QpState.SQD)) {
                drops.drop(DropReason.BAD_QP_STATE);
                return;
            }
            // RC accepts packets only from its connected peer (rxe check_addr; SEC-11).
            if (t.peer() == null || !t.peer().hasAddress(from.getAddress())) {
                drops.drop(DropReason.WRONG_SOURCE);
                return;
            }
            // Strict mode also pins the peer's UDP source port (SEC-12, SourceCheck).
            boolean strict = sourceCheck == SourceCheck.STRICT;
            if (strict && !SourcePin.admits(t, from.getPort())) {
                drops.drop(DropReason.WRONG_SOURCE_PORT);
                return;
            }
            long progress = strict ? SourcePin.mark(t) : 0;
            countReceived(t, length);
            t.noteArrival();
            if (request) {
                responder.onRequest(t, packet, rxData);
            } else {
                completer.onResponse(t, packet, rxData, clock.nanoTime());
            }
            if (strict) {
                SourcePin.pinOnProgress(t, progress, from.getPort());
            }
        }
    }
}
