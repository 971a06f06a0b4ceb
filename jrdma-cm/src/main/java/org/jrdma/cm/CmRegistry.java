package org.jrdma.cm;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;

/**
 * What the CM holds per process: the port bindings of every id (per port space, as the
 * kernel's port tables), the devices' contexts, and one {@link CmAgent} per device.
 *
 * <p>A device's context is opened when an id first uses it and stays open for the life of the
 * process — librdmacm keeps its devices open the same way — so that the PDs and QPs an
 * application makes on {@link CmId#verbs()} outlive the ids. The agent (its MAD port and timers) is
 * closed when the last id on the device is destroyed.
 */
final class CmRegistry {
    /** The kernel's default ephemeral range (net.ipv4.ip_local_port_range). */
    static final int EPHEMERAL_LOW = 32768;
    static final int EPHEMERAL_HIGH = 60999;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Object LOCK = new Object();
    private static final List<Binding> BINDINGS = new ArrayList<>();
    private static final Map<String, Context> CONTEXTS = new HashMap<>();
    private static final Map<String, InetAddress> ADDRESSES = new HashMap<>();
    private static final Map<String, CmAgent> AGENTS = new HashMap<>();
    /** Agents removed from {@link #AGENTS} whose GSI QP is not released yet, by device name. */
    private static final Map<String, java.util.concurrent.CountDownLatch> CLOSING = new HashMap<>();
    private static final long CLOSE_WAIT_SECONDS = 10;

    private record Binding(PortSpace space, InetAddress address, int port, CmId id) {
        boolean overlaps(InetAddress other) {
            return address.isAnyLocalAddress() || other.isAnyLocalAddress() || address.equals(other);
        }
    }

    private CmRegistry() {
    }

    /**
     * Binds {@code id} to (address, port) in its port space; port 0 takes a free ephemeral
     * port. Another id on an overlapping address (the same one, or either is 0.0.0.0) and the
     * same port makes it fail with ADDRESS_IN_USE, as rdma_bind_addr does without reuse.
     */
    static int bind(CmId id, PortSpace space, InetAddress address, int port) {
        synchronized (LOCK) {
            if (port == 0) {
                int span = EPHEMERAL_HIGH - EPHEMERAL_LOW + 1;
                int start = RANDOM.nextInt(span);
                for (int i = 0; i < span; i++) {
                    int p = EPHEMERAL_LOW + (start + i) % span;
                    if (free(space, address, p)) {
                        BINDINGS.add(new Binding(space, address, p, id));
                        return p;
                    }
                }
                throw new CmException(CmError.ADDRESS_IN_USE, "bind_addr: no free ephemeral port on "
                        + DeviceChoice.text(address));
            }
            if (!free(space, address, port)) {
                throw new CmException(CmError.ADDRESS_IN_USE, "bind_addr: " + space + " port " + port + " on "
                        + DeviceChoice.text(address) + " is already bound by another id (destroy it first)");
            }
            BINDINGS.add(new Binding(space, address, port, id));
            return port;
        }
    }

    private static boolean free(PortSpace space, InetAddress address, int port) {
        for (Binding b : BINDINGS) {
            if (b.space == space && b.port == port && b.overlaps(address)) {
                return false;
            }
        }
        return true;
    }

    static void unbind(CmId id) {
        synchronized (LOCK) {
            BINDINGS.removeIf(b -> b.id == id);
        }
    }

    /**
     * The listening id for a request to {@code port} in {@code space} that arrived on the
     * device at {@code deviceAddress} for {@code destination} (the cma_hdr's destination IP):
     * a listener bound to that address, or to 0.0.0.0. Null when none listens.
     */
    static CmId listener(PortSpace space, int port, InetAddress deviceAddress, InetAddress destination) {
        synchronized (LOCK) {
            for (Binding b : BINDINGS) {
                if (b.space == space && b.port == port && b.id.isListening()
                        && (b.address.isAnyLocalAddress() || b.address.equals(destination) && b.address.equals(deviceAddress))) {
                    return b.id;
                }
            }
            return null;
        }
    }

    /** The context of a device that an id uses, opened once per process. */
    static Context context(Device device) {
        synchronized (LOCK) {
            Context c = CONTEXTS.get(device.name());
            if (c == null) {
                c = device.open();
                CONTEXTS.put(device.name(), c);
                ADDRESSES.put(device.name(), gidAddress(c)); // what it has now, should a query have seen another
            }
            return c;
        }
    }

    /**
     * A device's address: its GID index 0 (::ffff:a.b.c.d for IPv4, the address itself for IPv6),
     * read once. Learning it takes nothing: the device's context when this process has it open,
     * else a context opened for queries alone ({@link Device#openForQuery}), closed at once. A
     * soft device binds its address in one process at a time, and the device choice looks at
     * every device listed; opening each made a client that also lists its server's device fail
     * with "open_device …: taken" (perf -R, rping). Only the device an id uses is opened.
     */
    static InetAddress address(Device device) {
        synchronized (LOCK) {
            InetAddress a = ADDRESSES.get(device.name());
            if (a == null) {
                try (Context query = device.openForQuery()) {
                    a = gidAddress(query);
                }
                ADDRESSES.put(device.name(), a);
            }
            return a;
        }
    }

    private static InetAddress gidAddress(Context c) {
        return c.queryGid(1, 0).toInetAddress();
    }

    /** The device with this address among {@code devices}, or null. */
    static Device deviceWithAddress(List<Device> devices, InetAddress address) {
        for (Device d : devices) {
            if (address(d).equals(address)) {
                return d;
            }
        }
        return null;
    }

    /** The agent of a device, started on first use; each call adds a user, {@link #release} removes one. */
    static CmAgent acquire(Device device, CmOptions options) {
        while (true) {
            java.util.concurrent.CountDownLatch closing;
            synchronized (LOCK) {
                closing = CLOSING.get(device.name());
                if (closing == null) {
                    CmAgent a = AGENTS.get(device.name());
                    if (a == null) {
                        a = CmAgent.start(device, context(device), address(device), options);
                        AGENTS.put(device.name(), a);
                    }
                    a.addUser();
                    return a;
                }
            }
            // The device's previous agent is still closing and holds QP1 until it has: a new
            // agent started now would find the GSI QP taken (EBUSY). Wait for it, with a deadline.
            try {
                if (!closing.await(CLOSE_WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS)) {
                    throw new CmException(CmError.TIMED_OUT, "the CM agent of " + device.name() + " did not finish closing within "
                            + CLOSE_WAIT_SECONDS + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CmException(CmError.TIMED_OUT, "interrupted while the CM agent of " + device.name() + " was closing");
            }
        }
    }

    static void release(CmAgent agent) {
        String name = agent.device().name();
        java.util.concurrent.CountDownLatch done = null;
        synchronized (LOCK) {
            if (agent.removeUser()) {
                AGENTS.remove(name, agent);
                done = new java.util.concurrent.CountDownLatch(1);
                CLOSING.put(name, done);
            }
        }
        if (done != null) {
            try {
                agent.close(); // outside LOCK: the port's thread may need LOCK while it winds down
            } finally {
                synchronized (LOCK) {
                    CLOSING.remove(name, done);
                }
                done.countDown();
            }
        }
    }

    /** The running agent of a device, or null (for counters). */
    static CmAgent agent(String deviceName) {
        synchronized (LOCK) {
            return AGENTS.get(deviceName);
        }
    }
}
