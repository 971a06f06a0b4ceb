package org.jrdma.cm;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jrdma.cm.wire.CmCodec;
import org.jrdma.cm.wire.CmFormatException;
import org.jrdma.cm.wire.CmMad;
import org.jrdma.cm.wire.Dreq;
import org.jrdma.cm.wire.Drep;
import org.jrdma.cm.wire.Mad;
import org.jrdma.cm.wire.Mra;
import org.jrdma.cm.wire.Rej;
import org.jrdma.cm.wire.Rep;
import org.jrdma.cm.wire.Req;
import org.jrdma.cm.wire.Rtu;
import org.jrdma.cm.wire.SidrRep;
import org.jrdma.cm.wire.SidrReq;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;

/**
 * The CM of one device in this process: its MAD port, a timer thread, and the connections of
 * every id on the device, found by comm ID. One lock guards all of it; the MAD port's thread,
 * the timer thread and the application's calls each take it. A malformed, unexpected or
 * foreign MAD is dropped and counted by reason; nothing thrown reaches the receive thread.
 */
final class CmAgent {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Device device;
    private final Context context;
    private final InetAddress address;
    private final Gid gid;
    private final DeviceAttr attr;
    private final Mtu activeMtu;
    private final long hiTid = RANDOM.nextInt() & 0xFFFFFFFFL;
    private final ReentrantLock lock = new ReentrantLock();
    private final ScheduledExecutorService timers;
    private final CmCounters counters = new CmCounters();
    private final Map<Integer, CmConn> byLocalId = new HashMap<>();
    private final Map<CmConn.PassiveKey, CmConn> byPeer = new HashMap<>();
    private MadPort port;
    private int users;
    private volatile boolean closed;

    private CmAgent(Device device, Context context, InetAddress address) {
        this.device = device;
        this.context = context;
        this.address = address;
        this.gid = Gid.of(address);
        this.attr = context.queryDevice();
        this.activeMtu = context.queryPort(1).activeMtu();
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "jrdma-cm-" + device.name());
            t.setDaemon(true);
            return t;
        });
    }

    static CmAgent start(Device device, Context context, InetAddress address, CmOptions options) {
        CmAgent a = new CmAgent(device, context, address);
        try {
            a.port = options.madPorts().open(context, address, a::onMad);
        } catch (RuntimeException e) {
            a.timers.shutdownNow();
            throw new CmException(CmError.NO_DEVICE, "cannot open the CM's MAD port on " + device.name() + ": " + e.getMessage(), e);
        }
        return a;
    }

    Device device() {
        return device;
    }

    Context context() {
        return context;
    }

    InetAddress address() {
        return address;
    }

    Gid gid() {
        return gid;
    }

    DeviceAttr deviceAttr() {
        return attr;
    }

    Mtu activeMtu() {
        return activeMtu;
    }

    CmCounters counters() {
        return counters;
    }

    void addUser() {
        users++;
    }

    /** True when that was the last user. */
    boolean removeUser() {
        return --users <= 0;
    }

    void lock() {
        lock.lock();
    }

    void unlock() {
        lock.unlock();
    }

    /** A TID for a message this side originates (REQ, DREQ, SIDR_REQ): the agent's random high half and the comm ID (§7.10). */
    long tid(int localCommId) {
        return (hiTid << 32) | (localCommId & 0xFFFFFFFFL);
    }

    /** A fresh local comm ID: random (SecureRandom), never 0, unique on this device; registered for {@code c}. */
    int newCommId(CmConn c) {
        int id;
        do {
            id = RANDOM.nextInt();
        } while (id == 0 || byLocalId.containsKey(id));
        byLocalId.put(id, c);
        c.localCommId = id;
        return id;
    }

    void rememberPassive(CmConn c, CmConn.PassiveKey key) {
        c.passiveKey = key;
        byPeer.put(key, c);
    }

    CmConn passive(CmConn.PassiveKey key) {
        return byPeer.get(key);
    }

    /** The connection is over: its comm ID and its peer's no longer match anything. */
    void forget(CmConn c) {
        if (c.localCommId != 0) {
            byLocalId.remove(c.localCommId, c);
        }
        if (c.passiveKey != null) {
            byPeer.remove(c.passiveKey, c);
        }
    }

    void send(InetAddress peer, byte[] mad) {
        if (closed) {
            return;
        }
        counters.add(CmCounters.SENT);
        port.send(peer, mad);
    }

    /** Runs {@code task} after {@code delay} under the agent's lock. */
    ScheduledFuture<?> schedule(Duration delay, Runnable task) {
        return timers.schedule(() -> {
            lock.lock();
            try {
                if (!closed) {
                    task.run();
                }
            } catch (RuntimeException e) {
                counters.add("timer_errors");
            } finally {
                lock.unlock();
            }
        }, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** The MAD port's receive callback: decode, find the connection, step it. Never throws. */
    void onMad(InetAddress source, int sourceQpn, byte[] mad, int off, int len) {
        counters.add(CmCounters.RECEIVED);
        if (sourceQpn != Mad.GSI_QPN) {
            counters.drop("not_from_qp1");
            return;
        }
        CmMad decoded;
        try {
            decoded = CmCodec.decode(mad, off, len);
        } catch (CmFormatException | RuntimeException e) {
            counters.drop("malformed");
            return;
        }
        lock.lock();
        try {
            if (!closed) {
                dispatch(source, decoded);
            }
        } catch (RuntimeException e) {
            counters.drop("handler_error");
        } finally {
            lock.unlock();
        }
    }

    private void dispatch(InetAddress src, CmMad mad) {
        long tid = mad.header().transactionId();
        switch (mad.message()) {
            case Req m -> PassiveSide.onReq(this, src, tid, m);
            case SidrReq m -> SidrSide.onRequest(this, src, tid, m);
            case Rep m -> {
                CmConn c = find(m.remoteCommId(), src);
                if (c != null) {
                    ActiveSide.onRep(c, m);
                }
            }
            case Rtu m -> {
                CmConn c = find(m.remoteCommId(), m.localCommId(), src);
                if (c != null) {
                    PassiveSide.onRtu(c, m);
                }
            }
            case Rej m -> {
                CmConn c = find(m.remoteCommId(), src);
                if (c != null) {
                    ActiveSide.onRej(c, m);
                }
            }
            case Mra m -> {
                CmConn c = find(m.remoteCommId(), src);
                if (c != null) {
                    ActiveSide.onMra(c, m);
                }
            }
            case Dreq m -> {
                CmConn c = find(m.remoteCommId(), m.localCommId(), src);
                if (c != null) {
                    Disconnect.onDreq(c, tid, m);
                }
            }
            case Drep m -> {
                CmConn c = find(m.remoteCommId(), m.localCommId(), src);
                if (c != null) {
                    Disconnect.onDrep(c, m);
                }
            }
            case SidrRep m -> {
                CmConn c = find(m.requestId(), src);
                if (c != null) {
                    SidrSide.onReply(c, m);
                }
            }
        }
    }

    /** The connection whose local comm ID is {@code localId}, if the MAD came from its peer's address (SEC-17). */
    private CmConn find(int localId, InetAddress src) {
        CmConn c = byLocalId.get(localId);
        if (c == null) {
            counters.drop("unknown_comm_id");
            return null;
        }
        if (!src.equals(c.peer)) {
            counters.drop("wrong_source");
            return null;
        }
        return c;
    }

    /** As {@link #find(int, InetAddress)}, and the peer's comm ID must be the one we know. */
    private CmConn find(int localId, int remoteId, InetAddress src) {
        CmConn c = find(localId, src);
        if (c != null && c.remoteCommId != remoteId) {
            counters.drop("wrong_comm_id");
            return null;
        }
        return c;
    }

    void close() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
        timers.shutdownNow();
        port.close();
    }
}
