package org.jrdma.bootstrap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;

/**
 * A full mesh of RC connections, one per peer, set up through a {@link Rendezvous}: this rank
 * creates a QP for each peer, publishes each QP's info for the peer it is meant for, waits for
 * every peer's info for this rank, and walks each QP RESET → INIT → RTR → RTS with it — {@link
 * RcConnector}'s flow, N - 1 times, with the store in place of the two-peer exchange.
 *
 * <pre>{@code
 * try (RendezvousStore store = RendezvousStores.open(URI.create("etcd://10.0.0.1:2379"), StoreOptions.DEFAULTS);
 *      Rendezvous rv = store.join(new RendezvousSpec("shuffle-42", rank, size, Duration.ofSeconds(60)));
 *      RcMesh mesh = RcMesh.connect(pd, rv, RcOptions.defaults(cq).exposing(mr))) {
 *     rv.barrier("connected");       // every rank's QPs are in RTS: SENDs find receives
 *     mesh.connection(peer).qp().postSend(...);
 * }
 * }</pre>
 *
 * Every QP uses the same options (CQs, capacities, exposed MR); {@link RcOptions#onInit} runs for
 * each, so receives are posted before any peer can send. Peers may send as soon as their own QPs
 * are in RTS, while this rank may still be walking, which RC's retries absorb; a barrier after
 * connect (as above) avoids depending on them.
 */
public final class RcMesh implements AutoCloseable {
    /**
     * How long each phase of {@link #connect} took.
     *
     * @param createNanos creating the N - 1 QPs
     * @param publishNanos writing their info to the store
     * @param awaitNanos waiting for the peers' info (the store's wait: the slowest rank sets it)
     * @param connectNanos walking the QPs to RTS
     */
    public record Phases(long createNanos, long publishNanos, long awaitNanos, long connectNanos) {
    }

    private final int rank;
    private final Map<Integer, RcConnection> connections;
    private final Phases phases;

    private RcMesh(int rank, Map<Integer, RcConnection> connections, Phases phases) {
        this.rank = rank;
        this.connections = connections;
        this.phases = phases;
    }

    /**
     * Connects this rank to every peer of the rendezvous.
     *
     * @param pd the protection domain the QPs are created in
     * @param rendezvous this rank's rendezvous, joined and not yet published
     * @param o the QPs' settings; its QP type must be RC
     * @return the mesh, each QP in RTS
     * @throws org.jrdma.bootstrap.rendezvous.RendezvousException when the store fails or a rank
     *     is missing; every QP made is then destroyed
     * @throws org.jrdma.verbs.VerbsException when a QP cannot be created or modified; likewise
     * @throws IllegalArgumentException if the options are not for RC
     */
    public static RcMesh connect(ProtectionDomain pd, Rendezvous rendezvous, RcOptions o) {
        if (o.qpType() != QpType.RC) {
            throw new IllegalArgumentException("a mesh is of RC QPs, not " + o.qpType());
        }
        long start = System.nanoTime();
        int rank = rendezvous.spec().rank();
        int size = rendezvous.spec().size();
        List<QueuePair> made = new ArrayList<>();
        try {
            Gid gid = pd.context().queryGid(o.port(), o.gidIndex());
            RemoteBuffer exposed = o.exposed() == null ? null : RemoteBuffer.of(o.exposed());
            Map<Integer, QueuePair> qps = new TreeMap<>();
            Map<Integer, ConnInfo> locals = new TreeMap<>();
            for (int peer = 0; peer < size; peer++) {
                if (peer == rank) {
                    continue;
                }
                QueuePair qp = RcConnector.createQp(pd, o);   // RC: checked above
                made.add(qp);
                qps.put(peer, qp);
                locals.put(peer, new ConnInfo(0, qp.qpNum(), RcConnector.initialPsn(), gid, exposed));
            }
            long created = System.nanoTime();
            rendezvous.publish(locals);
            long published = System.nanoTime();
            Map<Integer, ConnInfo> remotes = rendezvous.await();
            long awaited = System.nanoTime();
            Map<Integer, RcConnection> connections = new LinkedHashMap<>();
            for (Map.Entry<Integer, QueuePair> e : qps.entrySet()) {
                ConnInfo local = locals.get(e.getKey());
                ConnInfo remote = remotes.get(e.getKey());
                if (remote == null) {
                    throw new IllegalStateException("the rendezvous returned no info from rank " + e.getKey());
                }
                RcConnector.toRts(e.getValue(), o, local, remote, ConnectListener.NONE);
                RcConnection c = new RcConnection(e.getValue(), local, remote);
                ConnectionEvents.established("rendezvous", c, start);
                connections.put(e.getKey(), c);
            }
            long connected = System.nanoTime();
            return new RcMesh(rank, Collections.unmodifiableMap(connections),
                    new Phases(created - start, published - created, awaited - published, connected - awaited));
        } catch (RuntimeException e) {
            for (QueuePair qp : made) {
                try {
                    qp.close(); // OOB-14: a failed set-up leaves no QP behind
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * This rank's number.
     *
     * @return the rank
     */
    public int rank() {
        return rank;
    }

    /**
     * The connection to a peer.
     *
     * @param peer the peer's rank
     * @return its connection
     * @throws IllegalArgumentException if there is no such peer (or it is this rank)
     */
    public RcConnection connection(int peer) {
        RcConnection c = connections.get(peer);
        if (c == null) {
            throw new IllegalArgumentException("no connection to rank " + peer + " (this is rank " + rank + " of "
                    + (connections.size() + 1) + ")");
        }
        return c;
    }

    /**
     * Every connection, by peer rank in ascending order.
     *
     * @return peer rank to connection, unmodifiable
     */
    public Map<Integer, RcConnection> connections() {
        return connections;
    }

    /**
     * How long the set-up's phases took.
     *
     * @return the phases
     */
    public Phases phases() {
        return phases;
    }

    /** Closes every connection (its QP). Idempotent as RcConnection's close is. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (RcConnection c : connections.values()) {
            try {
                c.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
