package org.jrdma.verbs;

/**
 * An open device ({@code struct ibv_context}). Operations a provider lacks fail with
 * {@link Errno#EOPNOTSUPP}, as rdma-core's dummy ops do.
 */
public interface Context extends AutoCloseable {
    Device device();

    /** ibv_query_device. */
    DeviceAttr queryDevice();

    /** ibv_query_port; ports are numbered from 1. */
    PortAttr queryPort(int portNum);

    /** ibv_query_gid. */
    Gid queryGid(int portNum, int index);

    /** ibv_alloc_pd. */
    ProtectionDomain allocPd();

    /** ibv_create_comp_channel. */
    CompletionChannel createCompChannel();

    /** ibv_create_cq with at least {@code cqe} entries; {@code channel} may be null. */
    CompletionQueue createCq(int cqe, CompletionChannel channel);

    /**
     * ibv_get_async_event with a deadline: the next asynchronous event of this context (QP
     * fatal, communication established, SRQ limit, port events …); ETIMEDOUT when none came.
     */
    default AsyncEvent getAsyncEvent(java.time.Duration timeout) {
        throw VerbsException.unsupported("get_async_event");
    }

    /** The device counters as this process sees them (see {@link Device#counters()} for the host's). */
    default java.util.Map<String, Long> counters() {
        return java.util.Map.of();
    }

    /** ibv_close_device: releases everything created from this context. */
    @Override
    void close();
}
