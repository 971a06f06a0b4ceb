package org.jrdma.soft.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * A lossy, reordering, duplicating, corrupting, slow network in front of a device's socket:
 * {@code tc netem} in the process, on the packets this device sends (RELIABILITY-SECURITY
 * §4.4, the chaos matrix of §6.9). It wraps another {@link Datagrams}; what it receives passes
 * through untouched — to impair both directions, impair both devices.
 *
 * <h2>Knobs</h2>
 * See {@link Impairment} for the text form. Per packet handed to {@link #send}, in this order:
 * <ol>
 *   <li><b>loss</b> and <b>burst</b> (Gilbert–Elliott): the packet is gone, send returns true;
 *   <li><b>corrupt</b>: one uniformly chosen bit of the datagram is flipped — the BTH, the
 *       payload or the ICRC — so the receiver's ICRC check (or a header check) must drop it;
 *   <li><b>dup</b>: an intact second copy follows (corruption hits the original only, as in
 *       netem), with the same delay but never reordered;
 *   <li><b>reorder</b>: the packet is held back until {@code gap} packets sent after it have
 *       gone out, or until delay + {@code hold} has passed;
 *   <li><b>delay</b> ± <b>jitter</b>: the packet leaves when it is due, but never before the
 *       delayed packet sent before it — a queue whose delay varies keeps its order. (netem's
 *       jitter reorders unless a rate is set; here reordering is {@code reorder}'s job, so
 *       that a jitter run measures delay and a reorder run measures reordering.)
 * </ol>
 * Held packets are copies (the engine reuses its buffer) in a queue of bounded size; a packet
 * that finds the queue full is lost and counted ({@code overflow_dropped}). Nothing has a
 * thread of its own: due packets go out on the next {@link #send}, {@link #receive} (which the
 * engine calls on every pass), {@link #await} — which never sleeps past the next due packet —
 * or {@link #releaseDue}, which the device thread calls while it stands aside for the
 * application: a packet held 2 ms leaves after 2 ms even when the thread that drives the
 * engine is preempted in the middle of its pass (on a loaded machine that lasted up to 100 ms,
 * and a ping-pong's held SENDs and ACKs turned into local ACK timeouts).
 *
 * <h2>Replay</h2>
 * Every decision comes from one {@link SplittableRandom} seeded with {@link Impairment#seed()},
 * which draws the same eight numbers for every packet whatever the knobs are. So the same seed
 * and the same sequence of sends give the same decisions, and each knob's decisions depend
 * only on the seed and the packet's index: with {@code loss=1%,seed=7} and with
 * {@code loss=1%,dup=1%,seed=7} the n-th packet sent is lost in both or in neither. A device opened with
 * {@code JRDMA_IMPAIR} (or {@code -Djrdma.impair}) prints its settings, seed included, to
 * stderr:
 * <pre>
 * jrdma-soft rxe0: impairing outgoing packets: loss=5%,dup=1%,seed=-4412830710368512711
 * </pre>
 * Run again with {@code JRDMA_IMPAIR='loss=5%,dup=1%,seed=-4412830710368512711'} (or
 * {@code -Djrdma.impair=…}). The decisions replay exactly. Which packet is the n-th depends on
 * the transport's timers and threads, so a run on the engine thread with real time replays the
 * decisions, not necessarily the very same packet sequence; for that, make the device itself
 * deterministic: {@code ThreadingMode.INVOKER} and a test clock in {@code SoftOptions}, which
 * {@code SoftOptions.impairment} passes on to this class.
 *
 * <h2>Counters</h2>
 * {@link #counters()}: {@code sent} (packets offered), {@code dropped} (all losses),
 * {@code burst_dropped} and {@code overflow_dropped} (parts of {@code dropped}),
 * {@code corrupted}, {@code duplicated}, {@code reordered}, {@code delayed}, {@code wire}
 * (datagrams handed to the inner channel), {@code send_failures} (held packets the inner
 * channel refused or failed on when they came due) and {@code held} (now). Once nothing is
 * held, {@code wire = sent - dropped + duplicated}.
 *
 * <p>Over 400 lines because every knob acts on the same held queue under one lock, in the
 * order above, and the order is the point; a tenth of the file is this description.
 */
public final class ImpairedDatagrams implements Datagrams {
    /** The full windows of eight busy QPs (a QP keeps at most 128 PSNs in flight). */
    public static final int DEFAULT_QUEUE_CAPACITY = 1024;
    /** The UDP selector sleeps in whole milliseconds; shorter waits for a due packet park instead. */
    private static final long SELECT_RESOLUTION_NANOS = 1_000_000L;
    /** How soon {@link #releaseDue} wants to be called again when another thread held the queue. */
    private static final long RELEASE_RETRY_NANOS = 100_000L;

    private final Datagrams inner;
    private final Impairment impairment;
    private final LongSupplier nanoClock;
    private final long holdNanos;

    /** Guards the PRNG, the Gilbert–Elliott state and the queue: the decisions' order is the sends' order. */
    private final ReentrantLock lock = new ReentrantLock();
    private final SplittableRandom random;
    private boolean burstBad;
    private long nextSeq;
    /** When the last delayed packet is due: jitter varies the delay but keeps the order. */
    private long lastDueNanos;
    private boolean delayedBefore;
    private final Held[] held;
    private int heldCount;
    private ByteBuffer scratch = ByteBuffer.allocateDirect(2048);
    /** Copies of heldCount and the earliest due time, for the lock-free "anything due?" check. */
    private volatile int heldPublished;
    private volatile long nextDueNanos;

    private volatile Thread waiter;
    private volatile boolean woken;

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong burstDropped = new AtomicLong();
    private final AtomicLong overflowDropped = new AtomicLong();
    private final AtomicLong corrupted = new AtomicLong();
    private final AtomicLong duplicated = new AtomicLong();
    private final AtomicLong reordered = new AtomicLong();
    private final AtomicLong delayed = new AtomicLong();
    private final AtomicLong wire = new AtomicLong();
    private final AtomicLong sendFailures = new AtomicLong();

    /** A packet waiting in the queue; the objects and their buffers are reused. */
    private static final class Held {
        ByteBuffer bytes = ByteBuffer.allocate(0);
        int length;
        InetSocketAddress destination;
        long seq;
        long dueNanos;
        boolean reordered;
        int passedBy;
    }

    public ImpairedDatagrams(Datagrams inner, Impairment impairment) {
        this(inner, impairment, System::nanoTime, DEFAULT_QUEUE_CAPACITY);
    }

    /**
     * @param nanoClock the time that delays are measured in (a test's clock makes them
     *     deterministic; {@link #await} still parks in real time)
     * @param queueCapacity how many packets may be held at once; more are lost
     */
    public ImpairedDatagrams(Datagrams inner, Impairment impairment, LongSupplier nanoClock, int queueCapacity) {
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, got " + queueCapacity);
        }
        this.inner = inner;
        this.impairment = impairment;
        this.nanoClock = nanoClock;
        this.holdNanos = impairment.reorderHoldMicros() * 1000;
        this.random = new SplittableRandom(impairment.seed());
        this.held = new Held[queueCapacity];
        for (int i = 0; i < queueCapacity; i++) {
            held[i] = new Held();
        }
    }

    /** Opens {@code inner}'s channel and impairs it; every opened channel starts from the seed. */
    public static DatagramsFactory factory(Impairment impairment, DatagramsFactory inner) {
        return factory(impairment, inner, System::nanoTime);
    }

    /** The same, with delays measured by {@code nanoClock} (the device's clock). */
    public static DatagramsFactory factory(Impairment impairment, DatagramsFactory inner, LongSupplier nanoClock) {
        return local -> new ImpairedDatagrams(inner.open(local), impairment, nanoClock, DEFAULT_QUEUE_CAPACITY);
    }

    public Impairment impairment() {
        return impairment;
    }

    @Override
    public InetSocketAddress localAddress() {
        return inner.localAddress();
    }

    @Override
    public boolean send(ByteBuffer packet, InetSocketAddress destination) throws IOException {
        lock.lock();
        try {
            long now = nanoClock.getAsLong();
            release(now);
            long seq = nextSeq++;
            sent.incrementAndGet();
            // Eight draws per packet, always, in this order (see "Replay" above).
            double uLoss = random.nextDouble();
            double uBurstLoss = random.nextDouble();
            double uBurstMove = random.nextDouble();
            double uCorrupt = random.nextDouble();
            double uBit = random.nextDouble();
            double uDup = random.nextDouble();
            double uReorder = random.nextDouble();
            double uJitter = random.nextDouble();

            boolean burstLost = burstStep(uBurstLoss, uBurstMove);
            int start = packet.position();
            int length = packet.remaining();
            if (uLoss < impairment.loss() || burstLost) {
                dropped.incrementAndGet();
                if (burstLost) {
                    burstDropped.incrementAndGet();
                }
                packet.position(packet.limit()); // "sent", and lost on the way
                return true;
            }
            int flipBit = uCorrupt < impairment.corrupt() && length > 0 ? (int) (uBit * length * 8L) : -1;
            long delayNanos = delayNanos(uJitter);
            boolean accepted = true;
            boolean out; // the packet was sent or queued (not lost to a full queue)
            if (uReorder < impairment.reorder()) {
                out = hold(packet, start, length, destination, seq, flipBit, now + delayNanos + holdNanos, true);
                if (out) {
                    reordered.incrementAndGet();
                }
            } else if (delayNanos > 0) {
                out = hold(packet, start, length, destination, seq, flipBit, inQueueOrder(now + delayNanos), false);
                if (out) {
                    delayed.incrementAndGet();
                }
            } else {
                accepted = sendNow(packet, start, length, destination, seq, flipBit);
                out = true;
            }
            if (out && flipBit >= 0) {
                corrupted.incrementAndGet();
            }
            if (uDup < impairment.duplicate()) {
                duplicated.incrementAndGet();
                if (delayNanos == 0) {
                    sendNow(packet, start, length, destination, seq, -1);
                } else if (hold(packet, start, length, destination, seq, -1, inQueueOrder(now + delayNanos), false)) {
                    delayed.incrementAndGet();
                }
            }
            packet.position(packet.limit());
            release(now); // held-back packets whose followers just left
            return accepted;
        } finally {
            publish();
            lock.unlock();
        }
    }

    @Override
    public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
        releaseDue();
        return inner.receive(buffer);
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        long wait = timeoutNanos;
        if (heldPublished > 0) {
            lock.lock();
            try {
                long now = nanoClock.getAsLong();
                long before = wire.get();
                release(now);
                publish();
                if (wire.get() != before) {
                    return; // packets left (perhaps to this very device): let the caller look
                }
                if (heldCount > 0) {
                    wait = Math.min(wait, nextDueNanos - now);
                }
            } finally {
                lock.unlock();
            }
            if (wait <= 0) {
                return;
            }
            if (wait < SELECT_RESOLUTION_NANOS) {
                parkBriefly(wait); // a datagram arriving meanwhile waits at most this long
                return;
            }
        }
        inner.await(wait);
    }

    /**
     * Sends what is due (the lock-free check first: most calls find nothing due). It never
     * waits for the lock: whoever holds it is sending or releasing already.
     */
    @Override
    public long releaseDue() {
        if (heldPublished == 0) {
            return Long.MAX_VALUE;
        }
        long untilDue = nextDueNanos - nanoClock.getAsLong();
        if (untilDue > 0) {
            return untilDue;
        }
        if (!lock.tryLock()) {
            return RELEASE_RETRY_NANOS;
        }
        try {
            long now = nanoClock.getAsLong();
            release(now);
            publish();
            return heldCount == 0 ? Long.MAX_VALUE : Math.max(0, nextDueNanos - now);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void wakeup() {
        woken = true;
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
        inner.wakeup();
    }

    /** Held packets are dropped: a closed device's packets would never have left either. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            heldCount = 0;
            publish();
        } finally {
            lock.unlock();
        }
        inner.close();
    }

    /** How many packets are waiting to go out. */
    public int held() {
        return heldPublished;
    }

    /** The counters (see the class comment), in a fresh map. */
    public Map<String, Long> counters() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("sent", sent.get());
        m.put("dropped", dropped.get());
        m.put("burst_dropped", burstDropped.get());
        m.put("overflow_dropped", overflowDropped.get());
        m.put("corrupted", corrupted.get());
        m.put("duplicated", duplicated.get());
        m.put("reordered", reordered.get());
        m.put("delayed", delayed.get());
        m.put("wire", wire.get());
        m.put("send_failures", sendFailures.get());
        m.put("held", (long) heldPublished);
        return m;
    }

    @Override
    public String toString() {
        return "impaired(" + impairment + ") " + inner;
    }

    // ------------------------------------------------------------------ decisions

    /**
     * One Gilbert–Elliott step: the loss is decided in the current state, then the chain
     * moves (netem's loss_gilb_ell does the same two draws per packet).
     */
    private boolean burstStep(double uLoss, double uMove) {
        Impairment.Burst b = impairment.burst();
        boolean lost = uLoss >= (burstBad ? b.h() : b.k());
        burstBad = burstBad ? uMove >= b.r() : uMove < b.p();
        return lost;
    }

    /** A delayed packet leaves no earlier than the delayed packet before it, as from one queue. */
    private long inQueueOrder(long dueNanos) {
        if (delayedBefore && dueNanos - lastDueNanos < 0) {
            dueNanos = lastDueNanos;
        }
        lastDueNanos = dueNanos;
        delayedBefore = true;
        return dueNanos;
    }

    private long delayNanos(double u) {
        if (impairment.delayMicros() == 0) {
            return 0;
        }
        double micros = impairment.delayMicros() + impairment.jitterMicros() * (2 * u - 1);
        return Math.max(0, Math.round(micros * 1000));
    }

    // ------------------------------------------------------------------ the queue

    private boolean hold(ByteBuffer packet, int start, int length, InetSocketAddress destination, long seq,
            int flipBit, long dueNanos, boolean reorder) {
        if (heldCount == held.length) {
            overflowDropped.incrementAndGet();
            dropped.incrementAndGet();
            return false;
        }
        Held h = held[heldCount++];
        if (h.bytes.capacity() < length) {
            h.bytes = ByteBuffer.allocate(Math.max(length, 2048));
        }
        h.bytes.clear();
        h.bytes.put(0, packet, start, length);
        if (flipBit >= 0) {
            flip(h.bytes, flipBit);
        }
        h.length = length;
        h.destination = destination;
        h.seq = seq;
        h.dueNanos = dueNanos;
        h.reordered = reorder;
        h.passedBy = 0;
        return true;
    }

    /**
     * Sends what is due, earliest first: a held-back packet as soon as its gap is filled, the
     * rest in (due time, send order). O(held) per packet; the queue is small.
     */
    private void release(long now) {
        while (heldCount > 0) {
            int best = -1;
            for (int i = 0; i < heldCount; i++) {
                Held h = held[i];
                boolean gapFilled = h.reordered && h.passedBy >= impairment.reorderGap();
                if ((gapFilled || now - h.dueNanos >= 0) && (best < 0 || before(h, held[best]))) {
                    best = i;
                }
            }
            if (best < 0) {
                return;
            }
            Held h = held[best];
            held[best] = held[--heldCount];
            held[heldCount] = h; // the slot keeps its buffer for the next hold
            sendHeld(h);
        }
    }

    /** Of two packets that may leave, which goes first. */
    private boolean before(Held a, Held b) {
        boolean aGap = a.reordered && a.passedBy >= impairment.reorderGap();
        boolean bGap = b.reordered && b.passedBy >= impairment.reorderGap();
        if (aGap != bGap) {
            return aGap;
        }
        if (!aGap && a.dueNanos != b.dueNanos) {
            return a.dueNanos - b.dueNanos < 0;
        }
        return a.seq < b.seq;
    }

    private void sendHeld(Held h) {
        h.bytes.limit(h.length).position(0);
        try {
            if (!inner.send(h.bytes, h.destination)) {
                sendFailures.incrementAndGet();
            }
        } catch (IOException e) {
            // Its sender was told "sent" long ago; like a loss on the way, retransmission recovers it.
            sendFailures.incrementAndGet();
        }
        h.destination = null;
        onWire(h.seq);
    }

    private boolean sendNow(ByteBuffer packet, int start, int length, InetSocketAddress destination, long seq,
            int flipBit) throws IOException {
        boolean ok;
        if (flipBit < 0) {
            packet.position(start);
            ok = inner.send(packet, destination);
        } else {
            if (scratch.capacity() < length) {
                scratch = ByteBuffer.allocateDirect(Math.max(length, 2 * scratch.capacity()));
            }
            scratch.clear().put(0, packet, start, length).limit(length);
            flip(scratch, flipBit);
            ok = inner.send(scratch, destination);
        }
        onWire(seq);
        return ok;
    }

    /** A packet left: every held-back packet sent before it has been overtaken once more. */
    private void onWire(long seq) {
        wire.incrementAndGet();
        for (int i = 0; i < heldCount; i++) {
            Held h = held[i];
            if (h.reordered && h.seq < seq) {
                h.passedBy++;
            }
        }
    }

    private static void flip(ByteBuffer b, int bit) {
        int index = bit >>> 3;
        b.put(index, (byte) (b.get(index) ^ (0x80 >>> (bit & 7))));
    }

    /** Called under the lock after every change to the queue. */
    private void publish() {
        long earliest = 0;
        for (int i = 0; i < heldCount; i++) {
            long due = held[i].dueNanos;
            if (i == 0 || due - earliest < 0) {
                earliest = due;
            }
        }
        nextDueNanos = earliest;
        heldPublished = heldCount; // written after nextDueNanos, read before it
    }

    private void parkBriefly(long nanos) {
        waiter = Thread.currentThread();
        try {
            if (!woken) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            woken = false;
            waiter = null;
        }
    }
}
