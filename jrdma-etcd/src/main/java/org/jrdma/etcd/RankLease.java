package org.jrdma.etcd;

import io.etcd.jetcd.Lease;
import io.etcd.jetcd.lease.LeaseGrantResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import org.jrdma.bootstrap.rendezvous.RendezvousException;

/**
 * One rank's lease: every key the rank writes in a run hangs on it, so that when the rank dies its
 * keys (its member key first of all) vanish within the TTL and the others are told. jetcd keeps it
 * alive at a third of the TTL; each answer is noted, so that a store that stopped answering is
 * seen by the waiting rank without asking the store anything.
 */
final class RankLease implements AutoCloseable {
    /** Put on the waiting rank's queue when jetcd gives the lease up (expired, or refused). */
    static final Object LOST = new Object();

    /** jetcd looks every 500 ms whether a keep-alive is due; the rest is for a loaded machine. */
    private static final Duration KEEP_ALIVE_SLACK = Duration.ofSeconds(1);

    private final Requests requests;
    private final Lease client;
    private final long id;
    /** The TTL etcd granted: its minimum may be more than asked for. */
    private final Duration ttl;
    private final CloseableClient keepAlive;
    private volatile long lastAnswer = System.nanoTime();
    private volatile Throwable lost;
    private volatile BlockingQueue<Object> listener;

    RankLease(Requests requests, Lease client, Duration ttl, int rank) {
        this.requests = requests;
        this.client = client;
        // etcd counts in whole seconds (and rounds up to its own minimum)
        long seconds = Math.max(1, (ttl.toMillis() + 999) / 1000);
        LeaseGrantResponse granted = requests.call("granting rank " + rank + "'s lease", 0, client.grant(seconds));
        this.id = granted.getID();
        this.ttl = Duration.ofSeconds(Math.max(seconds, granted.getTTL()));
        this.keepAlive = client.keepAlive(id, new StreamObserver<>() {
            @Override
            public void onNext(LeaseKeepAliveResponse r) {
                lastAnswer = System.nanoTime();
            }

            @Override
            public void onError(Throwable t) {
                lose(t);
            }

            @Override
            public void onCompleted() {
                lose(new RendezvousException("lease " + Long.toHexString(id) + " of rank " + rank + " expired"));
            }
        });
    }

    private void lose(Throwable t) {
        lost = t;
        BlockingQueue<Object> q = listener;
        if (q != null) {
            q.add(LOST);
        }
    }

    long id() {
        return id;
    }

    /** Where {@link #LOST} goes: the queue the rank is waiting on now, or null between waits. */
    void notify(BlockingQueue<Object> queue) {
        listener = queue;
        if (queue != null && lost != null) {
            queue.add(LOST);
        }
    }

    Throwable lost() {
        return lost;
    }

    /**
     * Whether the store has been silent for longer than a keep-alive period, jetcd's 500 ms tick
     * (with as much again for a busy machine) and a request's deadline together: it is down (or
     * cut off), even if the watch has not said so.
     */
    boolean silent() {
        long allowed = ttl.toNanos() / 3 + KEEP_ALIVE_SLACK.toNanos() + requests.timeout().toNanos();
        return System.nanoTime() - lastAnswer > allowed;
    }

    long silentMillis() {
        return (System.nanoTime() - lastAnswer) / 1_000_000;
    }

    /** Revokes the lease: the rank's keys go at once. The store may be gone: then the TTL does it. */
    @Override
    public void close() {
        keepAlive.close();
        try {
            requests.call("revoking lease " + Long.toHexString(id), 0, client.revoke(id));
        } catch (RendezvousException e) {
            // nothing to do: an unreachable store expires the lease by itself within the TTL
        }
    }
}
