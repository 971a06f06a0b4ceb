package org.jrdma.etcd;

import io.etcd.jetcd.KeyValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.PerftestKeyCodec;
import org.jrdma.bootstrap.rendezvous.MalformedEntryException;

/** The peers' info for one rank, {@code <E>/info/<me>/<from>}, each decoded as it arrives. */
final class InfoGoal implements Goal {
    private final String prefix;
    private final int me;
    private final int size;
    private final Map<Integer, ConnInfo> got = new TreeMap<>();

    InfoGoal(Keys keys, long epoch, int me, int size) {
        this.prefix = keys.infoPrefix(epoch, me);
        this.me = me;
        this.size = size;
    }

    @Override
    public String what() {
        return "connection info";
    }

    @Override
    public String prefix() {
        return prefix;
    }

    @Override
    public void put(KeyValue kv) {
        String key = Keys.text(kv.getKey());
        int from = Keys.rankAfter(key, prefix, size);
        if (from < 0 || from == me) {
            throw new MalformedEntryException(key, "not the key of a peer's info for rank " + me + " in a job of " + size, null);
        }
        byte[] value = kv.getValue().getBytes();
        if (value.length != PerftestKeyCodec.GID.size()) {
            throw new MalformedEntryException(key, value.length + " bytes, not a " + PerftestKeyCodec.GID.size() + "-byte "
                    + PerftestKeyCodec.GID.name(), null);
        }
        try {
            got.put(from, PerftestKeyCodec.GID.decode(value));
        } catch (RuntimeException e) {
            throw new MalformedEntryException(key, "not a " + PerftestKeyCodec.GID.name() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean done() {
        return got.size() == size - 1;
    }

    @Override
    public List<Integer> missing() {
        List<Integer> m = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (r != me && !got.containsKey(r)) {
                m.add(r);
            }
        }
        return m;
    }

    Map<Integer, ConnInfo> infos() {
        return Collections.unmodifiableMap(new TreeMap<>(got));
    }
}
