package org.jrdma.shm.sys;

import java.lang.foreign.MemorySegment;

/**
 * A shared mapping of a memfd: the memory this process sees, and what a peer needs to map it too.
 *
 * @param fd      the memfd's descriptor in this process, open while the mapping's arena lives
 *                (a peer opens it as {@code /proc/<pid>/fd/<fd>}); -1 for a mapping made by
 *                {@link Memfd#openPeer}, whose descriptor is closed once mapped
 * @param name    the memfd's name, without the kernel's {@code memfd:} prefix
 * @param segment the mapped memory; closing its arena unmaps it (and closes {@code fd})
 */
public record SharedMapping(int fd, String name, MemorySegment segment) {
}
