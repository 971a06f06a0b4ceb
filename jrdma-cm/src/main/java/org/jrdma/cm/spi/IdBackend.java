package org.jrdma.cm.spi;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.jrdma.cm.ConnParam;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;

/**
 * {@code struct rdma_cm_id} of a {@link CmBackend}: the calls of {@link org.jrdma.cm.CmId}, with
 * its meaning. Failures are {@link org.jrdma.cm.CmException}s naming the call and the errno; every
 * call on a destroyed id fails with CLOSED.
 */
public interface IdBackend {
    /**
     * The API's id for this one, told once as it is made: the events of this id name it.
     *
     * @param api the API's id
     */
    void attached(org.jrdma.cm.CmId api);

    /**
     * {@code rdma_bind_addr}; see {@link org.jrdma.cm.CmId#bindAddr}.
     *
     * @param address the local address and port
     */
    void bindAddr(InetSocketAddress address);

    /**
     * {@code rdma_listen}; see {@link org.jrdma.cm.CmId#listen}.
     *
     * @param backlog how many requests may wait untaken
     */
    void listen(int backlog);

    /**
     * {@code rdma_resolve_addr}; see {@link org.jrdma.cm.CmId#resolveAddr}.
     *
     * @param src the local address, or null
     * @param dst the peer's address
     * @param timeout how long resolution may take
     */
    void resolveAddr(InetSocketAddress src, InetSocketAddress dst, Duration timeout);

    /**
     * {@code rdma_resolve_route}; see {@link org.jrdma.cm.CmId#resolveRoute}.
     *
     * @param timeout how long resolution may take
     */
    void resolveRoute(Duration timeout);

    /**
     * {@code rdma_create_qp}; see {@link org.jrdma.cm.CmId#createQp}.
     *
     * @param pd a protection domain of the id's device
     * @param attr the QP's attributes
     * @return the QP
     */
    QueuePair createQp(ProtectionDomain pd, QpInitAttr attr);

    /**
     * {@code id->qp}.
     *
     * @return the QP, or null
     */
    QueuePair qp();

    /** {@code rdma_destroy_qp}. */
    void destroyQp();

    /**
     * {@code id->verbs} as a verbs {@link Context}.
     *
     * @return the context, or null while the id has no device
     */
    Context verbs();

    /**
     * {@code rdma_connect}.
     *
     * @param param the connection parameters
     */
    void connect(ConnParam param);

    /**
     * {@code rdma_accept}.
     *
     * @param param the connection parameters
     */
    void accept(ConnParam param);

    /**
     * {@code rdma_reject}.
     *
     * @param privateData the private data, or null
     */
    void reject(byte[] privateData);

    /** {@code rdma_establish}. */
    void establish();

    /** {@code rdma_disconnect}. */
    void disconnect();

    /**
     * {@code rdma_get_local_addr}.
     *
     * @return the local address, or null when unbound
     */
    InetSocketAddress localAddress();

    /**
     * {@code rdma_get_peer_addr}.
     *
     * @return the peer's address, or null
     */
    InetSocketAddress peerAddress();

    /**
     * {@code rdma_get_src_port}.
     *
     * @return the bound port, 0 when unbound
     */
    int port();

    /**
     * {@code rdma_destroy_id}, acking first the events of this id that the caller has not acked.
     * Idempotent.
     *
     * @param timeout how long to wait for the id's events
     */
    void close(Duration timeout);
}
