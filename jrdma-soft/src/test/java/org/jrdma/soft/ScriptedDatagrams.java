package org.jrdma.soft;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.soft.net.DatagramsFactory;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.soft.wire.Bth;
import org.jrdma.soft.wire.OpcodeTable;

/**
 * A real UDP socket whose outgoing packets follow a test's script — pass, drop, duplicate, or
 * hold until {@code releaseAfter} more requests have gone out (reordering) — and which logs what
 * really left and can replay earlier requests. For the sequencing cases of RELIABILITY-SECURITY
 * §6.7 (REL-05, REL-08, REL-10), where the order of packets must be exact, not probable.
 */
final class ScriptedDatagrams extends ForwardingDatagrams {
    enum Action { PASS, DROP, DUPLICATE, HOLD }

    /** One packet offered to the socket: {@code request} counts request packets offered so far. */
    record Offered(int index, int request, int opcode, int psn) {
        boolean isRequest() {
            return OpcodeTable.get(opcode).isRequest();
        }
    }

    /** One packet that really left: its opcode and PSN, and the AETH syndrome of an ACK (else -1). */
    record Sent(int opcode, int psn, int syndrome) {
    }

    interface Script {
        Action decide(Offered packet);
    }

    static final int ACKNOWLEDGE = 0x11;

    private final Script script;
    private final int releaseAfter;
    private final Bth bth = new Bth();
    private final List<Sent> sent = new ArrayList<>();
    private final List<ByteBuffer> requests = new ArrayList<>();
    private final List<ByteBuffer> held = new ArrayList<>();
    private InetSocketAddress heldTo;
    private int heldCountdown;
    private int offered;
    private int offeredRequests;

    private ScriptedDatagrams(UdpDatagrams real, Script script, int releaseAfter) {
        super(real);
        this.script = script;
        this.releaseAfter = releaseAfter;
    }

    static DatagramsFactory factory(Script script, int releaseAfter, ScriptedDatagrams[] made) {
        return local -> {
            ScriptedDatagrams d = new ScriptedDatagrams(UdpDatagrams.bind(local.getAddress(), local.getPort()), script,
                    releaseAfter);
            made[0] = d;
            return d;
        };
    }

    @Override
    public synchronized boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
        ByteBuffer copy = copy(packet);
        bth.wrap(copy, 0);
        Offered o = new Offered(offered++, offeredRequests, bth.opcode(), bth.psn());
        if (o.isRequest()) {
            offeredRequests++;
            requests.add(copy);
        }
        switch (script.decide(o)) {
            case DROP -> {
                return true; // "sent", and lost on the way
            }
            case HOLD -> {
                held.add(copy);
                heldTo = destination;
                heldCountdown = releaseAfter;
                return true;
            }
            case DUPLICATE -> {
                transmit(copy.duplicate(), destination);
                transmit(copy.duplicate(), destination);
            }
            case PASS -> transmit(copy.duplicate(), destination);
        }
        if (o.isRequest() && !held.isEmpty() && --heldCountdown == 0) {
            for (ByteBuffer h : held) {
                transmit(h.duplicate(), heldTo);
            }
            held.clear();
        }
        return true;
    }

    /** Sends again, from the test thread, the request packets offered with these request numbers. */
    synchronized void replay(int fromRequest, int toRequest, InetSocketAddress destination) throws IOException {
        for (int i = fromRequest; i < toRequest; i++) {
            transmit(requests.get(i).duplicate(), destination);
        }
    }

    synchronized int requestsOffered() {
        return offeredRequests;
    }

    synchronized int psnOfRequest(int request) {
        bth.wrap(requests.get(request), 0);
        return bth.psn();
    }

    /** What left so far, in order. */
    synchronized List<Sent> sent() {
        return List.copyOf(sent);
    }

    private void transmit(ByteBuffer p, InetSocketAddress destination) throws IOException {
        bth.wrap(p, 0);
        int syndrome = bth.opcode() == ACKNOWLEDGE ? p.get(Bth.LENGTH) & 0xFF : -1;
        sent.add(new Sent(bth.opcode(), bth.psn(), syndrome));
        real.send(p, destination);
    }

    private static ByteBuffer copy(ByteBuffer packet) {
        ByteBuffer c = ByteBuffer.allocate(packet.remaining());
        c.put(packet.duplicate()).flip();
        return c;
    }
}
