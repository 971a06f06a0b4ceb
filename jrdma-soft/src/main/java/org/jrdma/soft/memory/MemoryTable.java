package org.jrdma.soft.memory;

import java.lang.foreign.MemorySegment;
import java.util.function.IntSupplier;

/**
 * The memory regions of one soft device by lkey and by rkey. Keys are random and unique among
 * live regions of the device (an rkey names memory on the wire, so two live regions never
 * share one), and a fresh rkey is never one of the last 2^16 retired ones (SEC-03: a peer
 * holding a stale rkey must not reach a region registered since). Lookups happen on the engine
 * thread, registrations on user threads.
 */
public final class MemoryTable {
    private final IntMap<Region> byLkey = new IntMap<>();
    private final IntMap<Region> byRkey = new IntMap<>();
    private final IntMap<Window> windows = new IntMap<>();
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

    /** A new region of {@code pd} over {@code segment}, published under a fresh lkey/rkey pair. */
    public synchronized Region register(PdId pd, MemorySegment segment, int access) {
        int lkey;
        int rkey;
        do {
            lkey = keySource.getAsInt();
        } while (byLkey.containsKey(lkey));
        do {
            rkey = keySource.getAsInt();
        } while (rkeyInUse(rkey) || retired.contains(rkey));
        Region mr = new Region(pd, segment, access, lkey, rkey);
        byLkey.put(lkey, mr);
        byRkey.put(rkey, mr);
        return mr;
    }

    private boolean rkeyInUse(int rkey) {
        return byRkey.containsKey(rkey) || windows.containsKey(rkey);
    }

    /** Registers a new window under a fresh random rkey and returns it. */
    public synchronized int addWindow(Window mw) {
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
    public synchronized void rekeyWindow(Window mw, int oldKey, int newKey) {
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

    public synchronized Window windowByRkey(int rkey) {
        return windows.get(rkey);
    }

    public synchronized void removeWindow(Window mw, int rkey) {
        if (windows.get(rkey) == mw) {
            windows.remove(rkey);
            retired.add(rkey);
        }
    }

    /** Deregistration: the region stops being valid and its rkey is retired; false when it was already. */
    public synchronized boolean remove(Region mr) {
        if (!mr.registered) {
            return false;
        }
        mr.registered = false;
        byLkey.remove(mr.lkey());
        if (byRkey.get(mr.rkey()) == mr) {
            byRkey.remove(mr.rkey());
            retired.add(mr.rkey());
        }
        if (lastByAddress == mr) {
            lastByAddress = null;
        }
        return true;
    }

    public synchronized Region byLkey(int lkey) {
        return byLkey.get(lkey);
    }

    /** A live region of {@code pd} that holds [addr, addr+len), or null (a linear search: inline sends only). */
    public synchronized Region byAddress(PdId pd, long addr, long len) {
        // Inline sends look their bytes up by address on every post: the last hit first, then a
        // scan (no lambda, no allocation on this path).
        Region last = lastByAddress;
        if (last != null && last.pd() == pd && last.isValid() && last.contains(addr, len)) {
            return last;
        }
        for (int i = 0, n = byLkey.slots(); i < n; i++) {
            Region mr = byLkey.valueAt(i);
            if (mr != null && mr.pd() == pd && mr.isValid() && mr.contains(addr, len)) {
                lastByAddress = mr;
                return mr;
            }
        }
        return null;
    }

    /** The region {@link #byAddress} found last (checked again on every use). */
    private Region lastByAddress;

    public synchronized Region byRkey(int rkey) {
        return byRkey.get(rkey);
    }

    public synchronized int size() {
        return byLkey.size();
    }
}
