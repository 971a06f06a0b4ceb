package org.jrdma.soft;

import org.jrdma.verbs.CompletionChannel;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;

/**
 * A soft device that another process on this host has open, opened to be looked at
 * ({@link SoftDevice#openForQuery()}): a soft device binds its address in one process at a
 * time, while ibv_devinfo may open a NIC that any number of programs use. The queries answer
 * from the device's configuration — the limits, port 1 active (it is serving that process), the
 * configured address's GID; creating anything fails with EBUSY, naming why.
 */
final class SoftQueryContext implements Context {
    private final SoftDevice device;
    private final String holder;

    SoftQueryContext(SoftDevice device, String holder) {
        this.device = device;
        this.holder = holder;
    }

    @Override
    public Device device() {
        return device;
    }

    @Override
    public DeviceAttr queryDevice() {
        return SoftAttributes.device(device.guid());
    }

    @Override
    public PortAttr queryPort(int portNum) {
        SoftContext.checkPort("query_port", portNum);
        return SoftAttributes.port(true, Mtu.forEthernetMtu(device.spec().ethernetMtu()));
    }

    @Override
    public Gid queryGid(int portNum, int index) {
        SoftContext.checkPort("query_gid", portNum);
        if (index != 0) {
            throw new VerbsException(Errno.EINVAL, "query_gid: index " + index + " outside the GID table (1 entry: 0)");
        }
        return Gid.of(device.spec().address());
    }

    @Override
    public ProtectionDomain allocPd() {
        throw busy("alloc_pd");
    }

    @Override
    public CompletionChannel createCompChannel() {
        throw busy("create_comp_channel");
    }

    @Override
    public CompletionQueue createCq(int cqe, CompletionChannel channel) {
        throw busy("create_cq");
    }

    @Override
    public void close() {
        // nothing was bound or made
    }

    private VerbsException busy(String op) {
        return new VerbsException(Errno.EBUSY, op + ": soft device " + device.name() + " is open in another process ("
                + holder + "); this context, opened for queries, creates nothing");
    }
}
