package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.WorkCompletion;

/** Test helpers: options with fast timers, expecting events, an RC endpoint with memory, waiting on conditions. */
final class Cm {
    static final Duration WAIT = Duration.ofSeconds(20);

    private Cm() {
    }

    /** Fast CM timers: 100 ms per attempt, 3 retries, 50 ms timewait. */
    static CmOptions options(List<Device> devices, MadPort.Factory madPorts) {
        return CmOptions.defaults().devices(() -> devices).madPorts(madPorts).responseTimeout(Duration.ofMillis(100))
                .maxRetries(3).timewait(Duration.ofMillis(50)).destroyTimeout(Duration.ofSeconds(5));
    }

    /** The next event on {@code ch}, which must be of {@code type} (not yet acked). */
    static CmEvent expect(EventChannel ch, CmEventType type) {
        CmEvent e = ch.getEvent(WAIT);
        assertThat(e.type()).as("event (status %d)", e.status()).isEqualTo(type);
        return e;
    }

    /** Expects and acks. */
    static CmEvent ack(EventChannel ch, CmEventType type) {
        CmEvent e = expect(ch, type);
        e.ack();
        return e;
    }

    static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** A listener bound to {@code device}'s address on an ephemeral port. */
    static CmId listener(EventChannel ch, Device device, PortSpace space, int backlog) {
        CmId l = CmId.create(ch, space, "listener");
        l.bindAddr(new InetSocketAddress(CmRegistry.address(device), 0));
        l.listen(backlog);
        return l;
    }

    /** An active id resolved (address and route) towards {@code listener} from {@code device}. */
    static CmId resolved(EventChannel ch, Device device, CmId listener, PortSpace space) {
        CmId id = CmId.create(ch, space, "client");
        id.resolveAddr(new InetSocketAddress(CmRegistry.address(device), 0), listener.localAddress(), WAIT);
        ack(ch, CmEventType.ADDR_RESOLVED);
        id.resolveRoute(WAIT);
        ack(ch, CmEventType.ROUTE_RESOLVED);
        return id;
    }

    /** A PD, CQ, 4 KiB of registered memory and an RC QP on an id. */
    static final class Endpoint implements AutoCloseable {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final Arena arena = Arena.ofShared();
        final MemorySegment buf;
        final MemoryRegion mr;
        final QueuePair qp;
        private final CmId id;

        Endpoint(CmId id, QpType type) {
            this.id = id;
            pd = id.verbs().allocPd();
            cq = id.verbs().createCq(64, null);
            buf = arena.allocate(4096, 64);
            mr = pd.registerMemory(buf, AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ);
            qp = id.createQp(pd, new QpInitAttr().qpType(type).cq(cq).cap(new QpCap(16, 16, 1, 1, 0)));
        }

        WorkCompletion poll() {
            WorkCompletion[] wc = {new WorkCompletion()};
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (cq.poll(wc) == 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no completion");
                }
                Thread.onSpinWait();
            }
            return wc[0];
        }

        @Override
        public void close() {
            id.destroyQp();
            mr.close();
            cq.close();
            pd.close();
            arena.close();
        }
    }
}
