package org.jrdma.cm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jrdma.cm.wire.Mad;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Grh;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QpWalk;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WorkCompletion;

/**
 * MADs over a device's GSI QP (QP1, Q_Key 0x80010000; ROCEV2-FACTS §7.4), on resources of its
 * own: a context, PD, a ring of {@value #RING} posted receives of 40 + 256 bytes (the GRH area,
 * then the MAD), a receive CQ on a completion channel that a thread waits on, and a send CQ the
 * sender polls to reuse its {@value #SEND_SLOTS} send buffers. Sends go as UD SEND_ONLY to QP1
 * through one address handle per peer, kept.
 */
final class GsiMadPort implements MadPort {
    static final int RING = 256;
    static final int SEND_SLOTS = 64;
    private static final int RECV_BYTES = Grh.BYTES + Mad.SIZE;
    /** How often the idle receive thread looks up (to notice close: a channel with a CQ on it cannot be closed to wake it). */
    private static final Duration WAKE = Duration.ofMillis(50);
    private static final long SEND_WAIT_NANOS = 1_000_000_000L;

    private final Context context;
    private final ProtectionDomain pd;
    private final CompletionChannel channel;
    private final CompletionQueue recvCq;
    private final CompletionQueue sendCq;
    private final QueuePair qp;
    private final Arena arena = Arena.ofShared();
    private final MemoryRegion mr;
    private final Receiver receiver;
    private final Map<InetAddress, AddressHandle> ahs = new HashMap<>();
    private final boolean[] sendBusy = new boolean[SEND_SLOTS];
    private final WorkCompletion[] sendWc = completions(16);
    private final Thread thread;
    private volatile boolean running = true;
    private int nextSlot;
    private long dropped;

    private GsiMadPort(Context ownContext, InetAddress local, Receiver receiver) {
        this.context = ownContext;
        this.receiver = receiver;
        this.pd = context.allocPd();
        this.channel = context.createCompChannel();
        this.recvCq = context.createCq(RING, channel);
        this.sendCq = context.createCq(SEND_SLOTS, null);
        this.qp = pd.createQp(new QpInitAttr().qpType(QpType.GSI).sendCq(sendCq).recvCq(recvCq)
                .cap(new QpCap(SEND_SLOTS, RING, 1, 1, 0)));
        QpWalk.of(QpType.GSI).port(1).qkey(Mad.GSI_QKEY).sqPsn(0).toRts(qp);
        MemorySegment memory = arena.allocate((long) RING * RECV_BYTES + (long) SEND_SLOTS * Mad.SIZE, 64);
        this.mr = pd.registerMemory(memory, AccessFlags.LOCAL_WRITE, arena);
        for (int i = 0; i < RING; i++) {
            postRecv(i);
        }
        recvCq.requestNotify(false);
        this.thread = Thread.ofPlatform().daemon().name("jrdma-cm-gsi-" + context.device().name()).start(this::run);
    }

    /** The {@link MadPort.Factory} of real devices: a GSI QP on a context of its own. */
    static MadPort open(Context context, InetAddress local, Receiver receiver) {
        Context own = context.device().open();
        try {
            return new GsiMadPort(own, local, receiver);
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
    }

    private void postRecv(int slot) {
        qp.postRecv(new RecvWorkRequest().wrId(slot).sg(new Sge(mr.addr() + (long) slot * RECV_BYTES, RECV_BYTES, mr.lkey())));
    }

    private void run() {
        WorkCompletion[] wc = completions(32);
        byte[] mad = new byte[Mad.SIZE];
        while (running) {
            try {
                int n;
                while ((n = recvCq.poll(wc)) > 0) {
                    for (int i = 0; i < n; i++) {
                        received(wc[i], mad);
                    }
                }
                recvCq.requestNotify(false);
                if (recvCq.poll(wc, 1) > 0) {
                    received(wc[0], mad); // arrived between the last poll and the arming
                    continue;
                }
                try {
                    CompletionQueue cq = channel.getEvent(WAKE);
                    cq.ackEvents(1);
                } catch (VerbsException timeout) {
                    // no event: look again (and notice close)
                }
            } catch (RuntimeException e) {
                if (running) {
                    dropped++;
                }
            }
        }
    }

    private void received(WorkCompletion wc, byte[] mad) {
        int slot = (int) wc.wrId;
        try {
            if (!wc.ok() || wc.byteLen < RECV_BYTES) {
                dropped++;
                return;
            }
            MemorySegment area = mr.segment().asSlice((long) slot * RECV_BYTES, RECV_BYTES);
            InetAddress source = Grh.sourceGid(area.asSlice(0, Grh.BYTES)).toInetAddress();
            MemorySegment.copy(area, java.lang.foreign.ValueLayout.JAVA_BYTE, Grh.BYTES, mad, 0, Mad.SIZE);
            receiver.onMad(source, wc.srcQp, mad, 0, Mad.SIZE);
        } finally {
            if (running) {
                postRecv(slot);
            }
        }
    }

    @Override
    public synchronized void send(InetAddress peer, byte[] mad) {
        if (!running || mad.length != Mad.SIZE) {
            return;
        }
        int slot = freeSlot();
        if (slot < 0) {
            dropped++; // the CM resends on its timeout
            return;
        }
        long offset = (long) RING * RECV_BYTES + (long) slot * Mad.SIZE;
        MemorySegment.copy(mad, 0, mr.segment(), java.lang.foreign.ValueLayout.JAVA_BYTE, offset, Mad.SIZE);
        AddressHandle ah = ahs.computeIfAbsent(peer, p -> pd.createAh(CmQp.addressVector(Gid.of(p))));
        sendBusy[slot] = true;
        try {
            qp.postSend(new SendWorkRequest().wrId(slot).flags(SendFlags.SIGNALED)
                    .sg(new Sge(mr.addr() + offset, Mad.SIZE, mr.lkey())).ud(ah, Mad.GSI_QPN, Mad.GSI_QKEY));
        } catch (VerbsException e) {
            sendBusy[slot] = false;
            dropped++;
        }
    }

    /** A send buffer whose send has completed; polls the send CQ, for up to a second if all are in flight. */
    private int freeSlot() {
        long deadline = System.nanoTime() + SEND_WAIT_NANOS;
        while (true) {
            int n = sendCq.poll(sendWc);
            for (int i = 0; i < n; i++) {
                sendBusy[(int) sendWc[i].wrId] = false;
            }
            for (int i = 0; i < SEND_SLOTS; i++) {
                int s = (nextSlot + i) % SEND_SLOTS;
                if (!sendBusy[s]) {
                    nextSlot = (s + 1) % SEND_SLOTS;
                    return s;
                }
            }
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.onSpinWait();
        }
    }

    private static WorkCompletion[] completions(int n) {
        WorkCompletion[] wc = new WorkCompletion[n];
        for (int i = 0; i < n; i++) {
            wc[i] = new WorkCompletion();
        }
        return wc;
    }

    long dropped() {
        return dropped;
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(WAKE.toMillis() * 20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            context.close(); // releases the QP, CQs, AHs, MR and PD made from it
        }
        arena.close();
    }
}
