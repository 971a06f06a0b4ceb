package org.jrdma.soft;

import java.net.InetSocketAddress;
import org.jrdma.soft.net.RoceEndpoint;
import org.jrdma.soft.net.UdpDatagrams;
import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * A UD address handle: where datagrams go. On RoCE it must carry a GRH whose GID names the
 * peer; the soft provider takes its IP address (IPv4-mapped, or IPv6 on an IPv6 device) and UDP 4791.
 */
public final class SoftAh implements AddressHandle, org.jrdma.soft.transport.UdDestination {
    private final SoftPd pd;
    private final AhAttr attr;
    private final RoceEndpoint destination;
    private volatile boolean closed;

    SoftAh(SoftPd pd, AhAttr attr) {
        if (!attr.isGlobal || attr.dgid == null) {
            throw new VerbsException(Errno.EINVAL, "create_ah: on RoCE the address needs a GRH with the peer's "
                    + "GID (::ffff:a.b.c.d for IPv4, the IPv6 address for IPv6), not " + attr.dgid);
        }
        SoftQp.checkDgidFamily("create_ah", attr.dgid, pd.hca().isIpv6());
        if (attr.sgidIndex != 0) {
            throw new VerbsException(Errno.EINVAL, "create_ah: sgid_index " + attr.sgidIndex + " outside the GID table (1 entry: 0)");
        }
        SoftContext.checkPort("create_ah", attr.portNum);
        this.pd = pd;
        this.attr = attr.copy();
        this.destination = RoceEndpoint.of(new InetSocketAddress(attr.dgid.toInetAddress(), UdpDatagrams.ROCE_PORT));
    }

    @Override
    public AhAttr attr() {
        return attr.copy();
    }

    @Override
    public RoceEndpoint endpoint() {
        return destination;
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        pd.forget(this);
    }
}
