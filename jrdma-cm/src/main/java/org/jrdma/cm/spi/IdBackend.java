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
    /** The API's id for this one, told once as it is made: the events of this id name it. */
    void attached(org.jrdma.cm.CmId api);

    void bindAddr(InetSocketAddress address);

    void listen(int backlog);

    void resolveAddr(InetSocketAddress src, InetSocketAddress dst, Duration timeout);

    void resolveRoute(Duration timeout);

    QueuePair createQp(ProtectionDomain pd, QpInitAttr attr);

    QueuePair qp();

    void destroyQp();

    /** id->verbs as a verbs {@link Context}, or null while the id has no device. */
    Context verbs();

    void connect(ConnParam param);

    void accept(ConnParam param);

    void reject(byte[] privateData);

    void establish();

    void disconnect();

    InetSocketAddress localAddress();

    InetSocketAddress peerAddress();

    /** rdma_get_src_port, 0 when unbound. */
    int port();

    /** rdma_destroy_id, acking first the events of this id that the caller has not acked. Idempotent. */
    void close(Duration timeout);
}
