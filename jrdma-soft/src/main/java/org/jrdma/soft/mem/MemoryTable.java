package org.jrdma.soft.mem;

import org.jrdma.soft.SoftMr;

/**
 * The memory regions of one soft device by lkey and by rkey. Keys are random and unique among
 * live regions of the device (an rkey names memory on the wire, so two live regions never
 * share one). Lookups happen on the engine thread, registrations on user threads.
 */
public final class MemoryTable {
    private final IntMap<SoftMr> byLkey = new IntMap<>();
    private final IntMap<SoftMr> byRkey = new IntMap<>();

    /** Allocates a fresh lkey/rkey pair and publishes the region under both. */
    public synchronized void add(SoftMr mr, KeyPair keys) {
        int lkey;
        int rkey;
        do {
            lkey = SecureIds.memoryKey();
        } while (byLkey.containsKey(lkey));
        do {
            rkey = SecureIds.memoryKey();
        } while (byRkey.containsKey(rkey));
        keys.lkey = lkey;
        keys.rkey = rkey;
        byLkey.put(lkey, mr);
        byRkey.put(rkey, mr);
    }

    public synchronized void remove(SoftMr mr) {
        byLkey.remove(mr.lkey());
        byRkey.remove(mr.rkey());
    }

    public synchronized SoftMr byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    public synchronized SoftMr byRkey(int rkey) {
        return byRkey.get(rkey);
    }

    public synchronized int size() {
        return byLkey.size();
    }

    /** Out-parameter for {@link #add}. */
    public static final class KeyPair {
        public int lkey;
        public int rkey;
    }
}
