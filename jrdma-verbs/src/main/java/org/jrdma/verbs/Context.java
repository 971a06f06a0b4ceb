package org.jrdma.verbs;

/**
 * An open device ({@code struct ibv_context}). Operations a provider lacks fail with
 * {@link Errno#EOPNOTSUPP}, as rdma-core's dummy ops do.
 */
public interface Context extends AutoCloseable {
    /** {@return the device this context was opened on} */
    Device device();

    /** {@return the device's attributes and limits (ibv_query_device)} */
    DeviceAttr queryDevice();

    /**
     * ibv_query_port.
     *
     * @param portNum the port, numbered from 1
     * @return the port's attributes
     * @throws VerbsException EINVAL for a port the device does not have
     */
    PortAttr queryPort(int portNum);

    /**
     * ibv_query_gid: one entry of a port's GID table.
     *
     * @param portNum the port, numbered from 1
     * @param index   the GID table index, from 0 (below {@link PortAttr#gidTblLen()})
     * @return the GID at that index (on RoCEv2, an IPv6 or IPv4-mapped address)
     * @throws VerbsException EINVAL for a port or index outside the device's tables
     */
    Gid queryGid(int portNum, int index);

    /** {@return a new protection domain (ibv_alloc_pd)} */
    ProtectionDomain allocPd();

    /** {@return a new completion channel (ibv_create_comp_channel)} */
    CompletionChannel createCompChannel();

    /**
     * ibv_create_cq.
     *
     * @param cqe     the entries asked for (at most {@link DeviceAttr#maxCqe()})
     * @param channel the completion channel its events go to, or null for none
     * @return a CQ with at least {@code cqe} entries
     * @throws VerbsException EINVAL for a bad size or a channel of another provider
     */
    CompletionQueue createCq(int cqe, CompletionChannel channel);

    /**
     * ibv_get_async_event with a deadline: the next asynchronous event of this context (QP
     * fatal, communication established, SRQ limit, port events …).
     *
     * @param timeout how long to wait at most
     * @return the event; acknowledge it with {@link AsyncEvent#ack()}
     * @throws VerbsException ETIMEDOUT when none came in time; EOPNOTSUPP when the provider has no async events
     */
    default AsyncEvent getAsyncEvent(java.time.Duration timeout) {
        throw VerbsException.unsupported("get_async_event");
    }

    /**
     * The device counters as this process sees them (see {@link Device#counters()} for the host's).
     *
     * @return counter names to values; empty when the provider keeps none
     */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /** ibv_close_device: releases everything created from this context. */
    /**
     * Allocates memory for registration, of the kind this device moves best, owned by
     * {@code arena} (closing the arena frees it; register it with
     * {@link ProtectionDomain#registerMemory(java.lang.foreign.MemorySegment, int, java.lang.foreign.Arena)}
     * and the same arena so that it is deregistered first). The shm provider returns a shared
     * mapping another process can map, so a peer's WRITE, READ or atomic reaches it with one
     * copy and no system call; the soft and native providers return
     * {@code arena.allocate(byteSize, 4096)}, page-aligned ordinary memory. Memory from anywhere
     * else can still be registered on every provider.
     *
     * @param byteSize the size in bytes, at least 1
     * @param arena the arena whose closing frees the memory
     * @return page-aligned memory of {@code byteSize} bytes, zeroed
     */
    default java.lang.foreign.MemorySegment allocateMemory(long byteSize, java.lang.foreign.Arena arena) {
        if (byteSize <= 0) {
            throw new VerbsException(Errno.EINVAL, "allocate: size " + byteSize + " must be positive");
        }
        return arena.allocate(byteSize, 4096);
    }

    @Override
    void close();
}
