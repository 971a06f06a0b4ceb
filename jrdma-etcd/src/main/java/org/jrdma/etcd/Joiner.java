package org.jrdma.etcd;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.util.List;
import org.jrdma.bootstrap.Excerpt;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;
import org.jrdma.bootstrap.rendezvous.RendezvousException;

/**
 * Takes a rank's slot in the job's current run. One transaction puts the member key, on the
 * rank's lease, if the epoch is still the one read and neither the slot nor the run's seal is
 * there; if the epoch is right but the slot or the seal is (a restart, an old run), the same
 * transaction's else branch moves the job to epoch + 1 and deletes the old epoch's keys, and the
 * join is tried again there.
 */
final class Joiner {
    private final KV kv;
    private final Requests requests;
    private final Keys keys;

    /** Where a rank stands: its epoch and the revision its member key was created at. */
    record Slot(long epoch, long memberRevision) {
    }

    Joiner(KV kv, Requests requests, Keys keys) {
        this.kv = kv;
        this.requests = requests;
        this.keys = keys;
    }

    Slot join(int rank, long lease, long deadlineNanos) {
        String epochKey = keys.epochKey();
        while (true) {
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new RendezvousException("job " + keys.job() + ": rank " + rank + " found no slot before the deadline on store "
                        + requests.address());
            }
            GetResponse read = requests.call("reading job " + keys.job() + "'s epoch", epochKey.length(), kv.get(Keys.bytes(epochKey)));
            requests.received(read.getKvs());
            long epoch = epochOf(read.getKvs());
            Cmp epochIs = read.getKvs().isEmpty()
                    ? new Cmp(Keys.bytes(epochKey), Cmp.Op.EQUAL, CmpTarget.version(0))
                    : new Cmp(Keys.bytes(epochKey), Cmp.Op.EQUAL, CmpTarget.value(Keys.bytes(Long.toString(epoch))));
            String member = keys.member(epoch, rank);
            String value = Integer.toString(rank);
            Op move = Op.txn(new Cmp[] {epochIs}, new Op[] {
                Op.put(Keys.bytes(epochKey), Keys.bytes(Long.toString(epoch + 1)), PutOption.DEFAULT),
                Op.delete(Keys.bytes(keys.epochPrefix(epoch)), DeleteOption.builder().isPrefix(true).build())
            }, new Op[0]);
            TxnResponse t = requests.call("joining job " + keys.job() + " epoch " + epoch + " as rank " + rank,
                    member.length() + value.length() + epochKey.length() * 2L + 24,
                    kv.txn()
                            .If(epochIs,
                                    new Cmp(Keys.bytes(member), Cmp.Op.EQUAL, CmpTarget.version(0)),
                                    new Cmp(Keys.bytes(keys.sealed(epoch)), Cmp.Op.EQUAL, CmpTarget.version(0)))
                            .Then(Op.put(Keys.bytes(member), Keys.bytes(value), PutOption.builder().withLeaseId(lease).build()))
                            .Else(move)
                            .commit());
            if (t.isSucceeded()) {
                return new Slot(epoch, t.getHeader().getRevision());
            }
            // else: moved to epoch + 1 by this rank, or someone else moved it first; read it again
        }
    }

    /** The epoch a read of the epoch key says: 1 while the key does not exist (the job's first run). */
    long epochOf(List<KeyValue> kvs) {
        if (kvs.isEmpty()) {
            return 1;
        }
        String text = Keys.text(kvs.getFirst().getValue());
        try {
            long e = Long.parseLong(text);
            if (e >= 1) {
                return e;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MalformedEntryException(keys.epochKey(), Excerpt.of(text) + " is not an epoch number", null);
    }

    /** A read of the epoch key alone, for a rank that must know whether the job moved. */
    long currentEpoch() {
        GetResponse read = requests.call("reading job " + keys.job() + "'s epoch", keys.epochKey().length(),
                kv.get(Keys.bytes(keys.epochKey()), GetOption.DEFAULT));
        requests.received(read.getKvs());
        return epochOf(read.getKvs());
    }
}
