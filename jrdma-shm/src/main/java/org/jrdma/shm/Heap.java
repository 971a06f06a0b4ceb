package org.jrdma.shm;

import java.util.Map;
import java.util.TreeMap;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * The owner's allocator of ring space in its control memory: first fit over a free list, in
 * 64-byte units (so rings start on cache lines), adjacent free blocks merged. Only the owner
 * allocates; peers learn offsets from the tables.
 */
final class Heap {
    private static final long UNIT = 64;
    private final TreeMap<Long, Long> free = new TreeMap<>();

    Heap(long start, long end) {
        free.put(start, end - start);
    }

    synchronized long allocate(long bytes, String what) {
        long size = (bytes + UNIT - 1) & ~(UNIT - 1);
        for (Map.Entry<Long, Long> e : free.entrySet()) {
            if (e.getValue() >= size) {
                long at = e.getKey();
                free.remove(at);
                if (e.getValue() > size) {
                    free.put(at + size, e.getValue() - size);
                }
                return at;
            }
        }
        throw new VerbsException(Errno.ENOMEM, what + ": the shm device's ring memory is exhausted (" + bytes + " bytes asked)");
    }

    synchronized void release(long at, long bytes) {
        long size = (bytes + UNIT - 1) & ~(UNIT - 1);
        Map.Entry<Long, Long> before = free.floorEntry(at);
        if (before != null && before.getKey() + before.getValue() == at) {
            at = before.getKey();
            size += before.getValue();
            free.remove(at);
        }
        Long after = free.get(at + size);
        if (after != null) {
            free.remove(at + size);
            size += after;
        }
        free.put(at, size);
    }
}
