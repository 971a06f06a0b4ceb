package org.jrdma.soft.memory;

import java.util.function.IntSupplier;
import org.jrdma.soft.SoftMr;
import org.jrdma.soft.SoftMw;

/**
 * The memory regions of one soft device by lkey and by rkey. Keys are random and unique among
 * live regions of the device (an rkey names memory on the wire, so two live regions never
 * share one), and a fresh rkey is never one of the last 2^16 retired ones (SEC-03: a peer
 * holding a stale rkey must not reach a region registered since). Lookups happen on the engine
 * thread, registrations on user threads.
 */
public final class MemoryTable {
    private final IntMap<SoftMr> byLkey = new IntMap<>();
    private final IntMap<SoftMr> byRkey = new IntMap<>();
    private final IntMap<SoftMw> windows = new IntMap<>();
    private final IntSupplier keySource;
    private final Quarantine retired;

    public MemoryTable() {
        this(SecureIds::memoryKey, Quarantine.DEFAULT_CAPACITY);
    }

    /** With another key source and quarantine window: tests that force a collision. */
    public MemoryTable(IntSupplier keys, int quarantine) {
        this.keySource = keys;
        this.retired = new Quarantine(quarantine);
    }

    /** Allocates a fresh lkey/rkey pair and publishes the region under both. */
    public synchronized void add(SoftMr mr, KeyPair keys) {
        int lkey;
        int rkey;
        do {
            lkey = keySource.getAsInt();
        } while (byLkey.containsKey(lkey));
        do {
            rkey = keySource.getAsInt();
        } while (rkeyInUse(rkey) || retired.contains(rkey));
        keys.lkey = lkey;
        keys.rkey = rkey;
        byLkey.put(lkey, mr);
        byRkey.put(rkey, mr);
    }

    private boolean rkeyInUse(int rkey) {
        return byRkey.containsKey(rkey) || windows.containsKey(rkey);
    }

    /** Registers a new window under a fresh random rkey and returns it. */
    public synchronized int addWindow(SoftMw mw) {
        int rkey;
        do {
            rkey = keySource.getAsInt();
        } while (rkeyInUse(rkey) || rkeyInUse(nextFree(rkey)) || retired.contains(rkey));
        windows.put(rkey, mw);
        return rkey;
    }

    private static int nextFree(int rkey) {
        return (rkey & 0xFFFFFF00) | ((rkey + 1) & 0xFF);
    }

    /** Moves a window from {@code oldKey} to {@code newKey} (a bind; {@code newKey} from {@link #freeWindowKey}). */
    public synchronized void rekeyWindow(SoftMw mw, int oldKey, int newKey) {
        if (windows.get(oldKey) == mw) {
            windows.remove(oldKey);
            retired.add(oldKey); // no new region takes it (a rebind may, as type 2 windows do)
        }
        windows.put(newKey, mw);
    }

    /** The next rkey for a window now at {@code rkey}: its low byte incremented, skipping keys in use. */
    public synchronized int freeWindowKey(int rkey) {
        int k = nextFree(rkey);
        for (int i = 0; i < 255 && rkeyInUse(k); i++) {
            k = nextFree(k);
        }
        return k;
    }

    public synchronized boolean isFreeWindowKey(int rkey) {
        return !rkeyInUse(rkey);
    }

    public synchronized SoftMw windowByRkey(int rkey) {
        return windows.get(rkey);
    }

    public synchronized void removeWindow(SoftMw mw, int rkey) {
        if (windows.get(rkey) == mw) {
            windows.remove(rkey);
            retired.add(rkey);
        }
    }

    public synchronized void remove(SoftMr mr) {
        byLkey.remove(mr.lkey());
        if (byRkey.get(mr.rkey()) == mr) {
            byRkey.remove(mr.rkey());
            retired.add(mr.rkey());
        }
        if (lastByAddress == mr) {
            lastByAddress = null;
        }
    }

    public synchronized SoftMr byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    /** A live region of {@code pd} that holds [addr, addr+len), or null (a linear search: inline sends only). */
    public synchronized SoftMr byAddress(Object pd, long addr, long len) {
        // Inline sends look their bytes up by address on every post: the last hit first, then a
        // scan (no lambda, no allocation on this path).
        SoftMr last = lastByAddress;
        if (last != null && last.softPd() == pd && last.isValid() && last.contains(addr, len)) {
            return last;
        }
        for (int i = 0, n = byLkey.slots(); i < n; i++) {
            SoftMr mr = byLkey.valueAt(i);
            if (mr != null && mr.softPd() == pd && mr.isValid() && mr.contains(addr, len)) {
                lastByAddress = mr;
                return mr;
            }
        }
        return null;
    }

    /** The region {@link #byAddress} found last (checked again on every use). */
    private SoftMr lastByAddress;

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
