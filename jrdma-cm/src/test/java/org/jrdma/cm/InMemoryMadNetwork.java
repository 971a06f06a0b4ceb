package org.jrdma.cm;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jrdma.cm.wire.CmAttribute;
import org.jrdma.verbs.Context;

/**
 * A MAD "network" in memory for unit tests: every port opened through it is reachable by its
 * address; MADs are delivered on one thread of the network's own, in order, unless a rule
 * drops, duplicates or holds one back (reorders it behind the next). Rules match by CM
 * attribute and count down; a seeded random loss rate can be added. A MAD to an address
 * nobody opened is lost.
 */
final class InMemoryMadNetwork implements MadPort.Factory, AutoCloseable {
    enum Action { DROP, DUPLICATE, HOLD }

    private final Map<InetAddress, Port> ports = new ConcurrentHashMap<>();
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "in-memory-mad-network");
        t.setDaemon(true);
        return t;
    });
    private final List<Rule> rules = new ArrayList<>();
    private final Random random;
    private double lossRate;
    /** Sees every MAD sent through the network (before any rule), or null. */
    volatile java.util.function.Consumer<byte[]> tap;
    /** Rewrites every MAD sent through the network (after the tap, before any rule), or null. */
    volatile java.util.function.UnaryOperator<byte[]> rewrite;
    private Held held;
    final AtomicInteger delivered = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();

    private record Rule(CmAttribute attribute, Action action, AtomicInteger left) {
    }

    private record Held(InetAddress from, InetAddress to, byte[] mad) {
    }

    InMemoryMadNetwork(long seed) {
        this.random = new Random(seed);
    }

    /** The next {@code times} MADs of {@code attribute} (from anyone) get {@code action}. */
    synchronized InMemoryMadNetwork rule(CmAttribute attribute, Action action, int times) {
        rules.add(new Rule(attribute, action, new AtomicInteger(times)));
        return this;
    }

    /** Forgets the rules that are left. */
    synchronized void clearRules() {
        rules.clear();
        lossRate = 0;
    }

    /** Every MAD is lost with this probability (seeded). */
    synchronized InMemoryMadNetwork loss(double rate) {
        this.lossRate = rate;
        return this;
    }

    @Override
    public MadPort open(Context context, InetAddress local, MadPort.Receiver receiver) {
        Port p = new Port(local, receiver);
        if (ports.putIfAbsent(local, p) != null) {
            throw new IllegalStateException("a MAD port is already open on " + local);
        }
        return p;
    }

    /** Sends a MAD as if from {@code from} (a forger needs no port of its own). */
    void inject(InetAddress from, int sourceQpn, InetAddress to, byte[] mad) {
        delivery.execute(() -> deliver(from, sourceQpn, to, mad));
    }

    private synchronized void route(InetAddress from, InetAddress to, byte[] mad) {
        java.util.function.Consumer<byte[]> t = tap;
        if (t != null) {
            t.accept(mad.clone());
        }
        java.util.function.UnaryOperator<byte[]> rw = rewrite;
        if (rw != null) {
            mad = rw.apply(mad.clone());
        }
        int attr = (mad[16] & 0xFF) << 8 | mad[17] & 0xFF;
        Action action = null;
        for (Rule r : rules) {
            if (r.attribute.id() == attr && r.left.get() > 0) {
                r.left.decrementAndGet();
                action = r.action;
                break;
            }
        }
        if (action == null && lossRate > 0 && random.nextDouble() < lossRate) {
            action = Action.DROP;
        }
        Held before = held;
        held = null;
        if (action == Action.DROP) {
            dropped.incrementAndGet();
        } else if (action == Action.HOLD) {
            held = new Held(from, to, mad.clone());
        } else {
            byte[] copy = mad.clone();
            delivery.execute(() -> deliver(from, 1, to, copy));
            if (action == Action.DUPLICATE) {
                byte[] again = mad.clone();
                delivery.execute(() -> deliver(from, 1, to, again));
            }
        }
        if (before != null) {
            delivery.execute(() -> deliver(before.from, 1, before.to, before.mad));
        }
    }

    private void deliver(InetAddress from, int sourceQpn, InetAddress to, byte[] mad) {
        Port p = ports.get(to);
        if (p == null) {
            dropped.incrementAndGet();
            return;
        }
        delivered.incrementAndGet();
        p.receiver.onMad(from, sourceQpn, mad, 0, mad.length);
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }

    private final class Port implements MadPort {
        private final InetAddress local;
        private final MadPort.Receiver receiver;

        Port(InetAddress local, MadPort.Receiver receiver) {
            this.local = local;
            this.receiver = receiver;
        }

        @Override
        public void send(InetAddress peer, byte[] mad) {
            route(local, peer, mad);
        }

        @Override
        public void close() {
            ports.remove(local, this);
        }
    }
}
