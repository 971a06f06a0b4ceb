package org.jrdma.etcd;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.rendezvous.MissingRanksException;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousException;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.bootstrap.rendezvous.StoreTraffic;
import org.jrdma.bootstrap.rendezvous.StoreUnavailableException;

/**
 * One rank's rendezvous on etcd. Its keys hang on its own lease; it waits by a watch on the job's
 * prefixes from the revision of an initial read (never by polling); a member key deleted while it
 * waits (a lease expired, a peer closed) fails it at once; an epoch move while it waits for info
 * (a restarted rank) makes it join the new epoch and publish again there.
 */
final class EtcdRendezvous implements Rendezvous {
    private static final Pattern BARRIER = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** Info puts per transaction: well under etcd's default limit of 128 operations. */
    private static final int BATCH = 64;

    private enum Outcome { DONE, MOVED }

    private final RendezvousSpec spec;
    private final KV kv;
    private final Client client;
    private final Requests requests;
    private final Keys keys;
    private final Joiner joiner;
    private final RankLease lease;
    private final long deadline;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Joiner.Slot slot;
    private Map<Integer, byte[]> published;
    private boolean sealedSeen;

    EtcdRendezvous(Client client, String address, StoreOptions options, RendezvousSpec spec) {
        this.deadline = System.nanoTime() + saturatedNanos(spec.timeout().toMillis());
        this.spec = spec;
        this.client = client;
        this.kv = client.getKVClient();
        this.requests = new Requests(address, options.requestTimeout());
        this.keys = new Keys(spec.job());
        this.joiner = new Joiner(kv, requests, keys);
        this.lease = new RankLease(requests, client.getLeaseClient(), options.leaseTtl(), spec.rank());
        try {
            this.slot = joiner.join(spec.rank(), lease.id(), deadline);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    private static long saturatedNanos(long millis) {
        return millis > Long.MAX_VALUE / 4_000_000 ? Long.MAX_VALUE / 4 : millis * 1_000_000;
    }

    @Override
    public RendezvousSpec spec() {
        return spec;
    }

    @Override
    public long epoch() {
        return slot.epoch();
    }

    @Override
    public void publish(Map<Integer, ConnInfo> forPeers) {
        if (published != null) {
            throw new IllegalStateException("rank " + spec.rank() + " has already published");
        }
        Map<Integer, byte[]> encoded = new TreeMap<>();
        for (Map.Entry<Integer, ConnInfo> e : forPeers.entrySet()) {
            int to = e.getKey();
            if (to < 0 || to >= spec.size() || to == spec.rank()) {
                throw new IllegalArgumentException("rank " + spec.rank() + " cannot publish for rank " + to + " in a job of " + spec.size());
            }
            encoded.put(to, PerftestKeyCodec.GID.encode(e.getValue()));
        }
        if (encoded.size() != spec.size() - 1) {
            List<Integer> missing = new ArrayList<>();
            for (int r = 0; r < spec.size(); r++) {
                if (r != spec.rank() && !encoded.containsKey(r)) {
                    missing.add(r);
                }
            }
            throw new IllegalArgumentException("rank " + spec.rank() + " has no info for ranks " + missing);
        }
        checkOpen();
        published = encoded;
        while (!putInfos()) {
            slot = joiner.join(spec.rank(), lease.id(), deadline);
        }
    }

    /** Writes this rank's info in its epoch; false if its slot is gone (the job moved on). */
    private boolean putInfos() {
        List<Op> batch = new ArrayList<>();
        long bytes = 0;
        for (Map.Entry<Integer, byte[]> e : published.entrySet()) {
            String key = keys.info(slot.epoch(), e.getKey(), spec.rank());
            batch.add(Op.put(Keys.bytes(key), io.etcd.jetcd.ByteSequence.from(e.getValue()),
                    PutOption.builder().withLeaseId(lease.id()).build()));
            bytes += key.length() + e.getValue().length;
            if (batch.size() == BATCH) {
                if (!inMySlot("publishing rank " + spec.rank() + "'s info", batch, bytes)) {
                    return false;
                }
                batch.clear();
                bytes = 0;
            }
        }
        return batch.isEmpty() || inMySlot("publishing rank " + spec.rank() + "'s info", batch, bytes);
    }

    /** Runs puts only while this rank's member key is the one it created: never into a run it is not in. */
    private boolean inMySlot(String doing, List<Op> ops, long bytes) {
        String member = keys.member(slot.epoch(), spec.rank());
        return requests.call(doing, bytes + member.length(), kv.txn()
                .If(new Cmp(Keys.bytes(member), Cmp.Op.EQUAL, CmpTarget.createRevision(slot.memberRevision())))
                .Then(ops.toArray(Op[]::new))
                .commit()).isSucceeded();
    }

    @Override
    public Map<Integer, ConnInfo> await() {
        if (published == null) {
            throw new IllegalStateException("rank " + spec.rank() + " must publish before it awaits");
        }
        checkOpen();
        while (true) {
            InfoGoal goal = new InfoGoal(keys, slot.epoch(), spec.rank(), spec.size());
            if (waitFor(goal) == Outcome.DONE) {
                sealQuietly();
                return goal.infos();
            }
            // a restarted rank moved the job: take a slot in the new run and publish there again
            do {
                slot = joiner.join(spec.rank(), lease.id(), deadline);
            } while (!putInfos());
        }
    }

    @Override
    public void barrier(String name) {
        if (name == null || !BARRIER.matcher(name).matches()) {
            throw new IllegalArgumentException("a barrier's name is 1-64 of [A-Za-z0-9_-], not " + name);
        }
        checkOpen();
        String key = keys.barrier(slot.epoch(), name, spec.rank());
        Op put = Op.put(Keys.bytes(key), Keys.bytes(Integer.toString(spec.rank())), PutOption.builder().withLeaseId(lease.id()).build());
        if (!inMySlot("reaching barrier " + name, List.of(put), key.length() + 8)
                || waitFor(new BarrierGoal(keys, slot.epoch(), name, spec.size())) == Outcome.MOVED) {
            throw new RendezvousException("job " + spec.job() + " moved on from epoch " + slot.epoch()
                    + " (a rank restarted) while rank " + spec.rank() + " was at barrier " + name + " on store " + requests.address());
        }
    }

    /**
     * Reads what is there, then watches from the next revision until the goal is met or the epoch
     * moves. The three watches are not ordered with each other: a member key's delete may come
     * before the epoch move that made it, hence the second read of the epoch before a rank is
     * called departed.
     */
    private Outcome waitFor(Goal goal) {
        long epoch = slot.epoch();
        String epochKey = keys.epochKey();
        TxnResponse read = requests.call("reading " + goal.what() + " for rank " + spec.rank(), goal.prefix().length() + epochKey.length(),
                kv.txn().Then(
                        Op.get(Keys.bytes(goal.prefix()), GetOption.builder().isPrefix(true).build()),
                        Op.get(Keys.bytes(epochKey), GetOption.DEFAULT)).commit());
        List<KeyValue> found = read.getGetResponses().get(0).getKvs();
        requests.received(found);
        requests.received(read.getGetResponses().get(1).getKvs());
        if (joiner.epochOf(read.getGetResponses().get(1).getKvs()) != epoch) {
            return Outcome.MOVED;
        }
        found.forEach(goal::put);
        if (goal.done()) {
            return Outcome.DONE;
        }
        String memberPrefix = keys.memberPrefix(epoch);
        String sealed = keys.sealed(epoch);
        BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        lease.notify(queue);
        long after = read.getHeader().getRevision() + 1;
        var watch = client.getWatchClient();
        // the member keys from this rank's own join on: a peer that left after it joined is seen
        // even if it left before the read (epoch moves are told apart by reading the epoch again)
        try (KeyWatch _ = new KeyWatch(watch, requests, goal.prefix(), true, after, queue);
                KeyWatch _ = new KeyWatch(watch, requests, memberPrefix, true, slot.memberRevision() + 1, queue);
                KeyWatch _ = new KeyWatch(watch, requests, epochKey, false, after, queue)) {
            while (true) {
                WatchResponse r = next(queue, goal);
                boolean moved = false;
                TreeSet<Integer> departed = new TreeSet<>();
                TreeSet<Long> leftAt = new TreeSet<>();
                for (WatchEvent e : r.getEvents()) {
                    String key = Keys.text(e.getKeyValue().getKey());
                    boolean put = e.getEventType() == WatchEvent.EventType.PUT;
                    if (key.equals(epochKey)) {
                        moved |= !put || !Keys.text(e.getKeyValue().getValue()).equals(Long.toString(epoch));
                    } else if (put && key.startsWith(goal.prefix())) {
                        goal.put(e.getKeyValue());
                    } else if (!put && key.startsWith(memberPrefix)) {
                        int rank = Keys.rankAfter(key, memberPrefix, spec.size());
                        if (rank >= 0 && !goal.has(rank)) {
                            departed.add(rank);
                            leftAt.add(e.getKeyValue().getModRevision());
                        }
                    } else if (put && key.equals(sealed)) {
                        sealedSeen = true;
                    }
                }
                if (moved) {
                    return Outcome.MOVED;
                }
                if (!departed.isEmpty()) {
                    // deletes that came with no epoch move in this response: make sure none is on its way
                    if (joiner.currentEpoch() != epoch) {
                        return Outcome.MOVED;
                    }
                    // A rank that did its part and then closed (passed the barrier first) took its
                    // keys with its lease, maybe before this rank read them; and the goal's watch
                    // is not ordered with the member watch. So read the goal as it was just before
                    // each departure (etcd keeps past revisions): what a rank left there counts.
                    for (long revision : leftAt) {
                        requests.call("reading " + goal.what() + " as it was at revision " + (revision - 1),
                                goal.prefix().length(), kv.get(Keys.bytes(goal.prefix()),
                                        GetOption.builder().isPrefix(true).withRevision(revision - 1).build()))
                                .getKvs().forEach(past -> {
                                    requests.received(List.of(past));
                                    goal.put(past);
                                });
                    }
                    departed.removeIf(goal::has);
                    if (goal.done()) {
                        return Outcome.DONE;
                    }
                    if (departed.isEmpty()) {
                        continue;
                    }
                    sealQuietly();
                    throw new MissingRanksException(spec.job(), epoch, goal.what(), List.copyOf(departed), List.of());
                }
                if (goal.done()) {
                    return Outcome.DONE;
                }
            }
        } finally {
            lease.notify(null);
        }
    }

    /**
     * The next watch response, waiting in slices of one request deadline: between them the lease's
     * keep-alive answers tell whether the store is still there (a watch on a dead store just waits).
     */
    private WatchResponse next(BlockingQueue<Object> queue, Goal goal) {
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                sealQuietly();
                throw new MissingRanksException(spec.job(), slot.epoch(), goal.what(), List.of(), goal.missing());
            }
            Object item;
            try {
                item = queue.poll(Math.min(left, requests.timeout().toNanos()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RendezvousException("rank " + spec.rank() + " was interrupted waiting for " + goal.what(), e);
            }
            if (item instanceof WatchResponse r) {
                return r;
            } else if (item == RankLease.LOST) {
                throw new StoreUnavailableException(requests.address(), "keeping rank " + spec.rank() + "'s lease alive", lease.lost());
            } else if (item instanceof Throwable t) {
                throw new StoreUnavailableException(requests.address(), "watching job " + spec.job() + "'s keys", t);
            } else if (item == KeyWatch.ENDED) {
                throw new StoreUnavailableException(requests.address(), "watching job " + spec.job() + "'s keys (the watch ended)", null);
            } else if (lease.silent()) {
                throw new StoreUnavailableException(requests.address(), "waiting for " + goal.what() + " (no keep-alive answer for "
                        + lease.silentMillis() + " ms)", null);
            }
        }
    }

    /**
     * Seals the run (it is complete, or this rank gives up on it), so that a rerun of the job id
     * takes a new epoch. The store may be what failed: then the seal is left to another rank.
     */
    private void sealQuietly() {
        if (sealedSeen) {
            return;
        }
        String sealed = keys.sealed(slot.epoch());
        try {
            requests.call("sealing job " + spec.job() + " epoch " + slot.epoch(), sealed.length() + 8, kv.txn()
                    .If(new Cmp(Keys.bytes(sealed), Cmp.Op.EQUAL, CmpTarget.version(0)))
                    .Then(Op.put(Keys.bytes(sealed), Keys.bytes(Integer.toString(spec.rank())), PutOption.DEFAULT))
                    .commit());
            sealedSeen = true;
        } catch (RendezvousException e) {
            // the caller reports its own failure, or has what it waited for
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("rank " + spec.rank() + "'s rendezvous is closed");
        }
    }

    @Override
    public StoreTraffic traffic() {
        return requests.traffic();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            lease.close();
        }
    }
}
