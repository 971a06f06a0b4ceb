package org.jrdma.etcd;

import io.etcd.jetcd.KeyValue;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/** The ranks that reached one barrier, {@code <E>/barrier/<name>/<rank>}. */
final class BarrierGoal implements Goal {
    private final String name;
    private final String prefix;
    private final int size;
    private final BitSet arrived;

    BarrierGoal(Keys keys, long epoch, String name, int size) {
        this.name = name;
        this.prefix = keys.barrierPrefix(epoch, name);
        this.size = size;
        this.arrived = new BitSet(size);
    }

    @Override
    public String what() {
        return "barrier " + name;
    }

    @Override
    public String prefix() {
        return prefix;
    }

    @Override
    public void put(KeyValue kv) {
        // a key that names no rank of the job is not ours; it cannot complete the barrier either
        int r = Keys.rankAfter(Keys.text(kv.getKey()), prefix, size);
        if (r >= 0) {
            arrived.set(r);
        }
    }

    @Override
    public boolean done() {
        return arrived.cardinality() == size;
    }

    @Override
    public List<Integer> missing() {
        List<Integer> m = new ArrayList<>();
        for (int r = arrived.nextClearBit(0); r < size; r = arrived.nextClearBit(r + 1)) {
            m.add(r);
        }
        return m;
    }
}
