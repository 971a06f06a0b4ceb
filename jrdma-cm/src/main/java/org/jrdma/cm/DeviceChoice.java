package org.jrdma.cm;

import java.net.InetAddress;
import java.util.List;
import org.jrdma.verbs.Device;

/** Which local soft device an active id uses to reach a destination (see {@link CmId#resolveAddr}). */
final class DeviceChoice {
    private DeviceChoice() {
    }

    /**
     * @param src the source address asked for, or null
     * @param bound the device the id is already bound to, or null
     * @return the device, or null when none can reach {@code dst}
     */
    static Device choose(List<Device> devices, InetAddress src, Device bound, InetAddress dst) {
        if (src != null && !src.isAnyLocalAddress()) {
            Device d = CmRegistry.deviceWithAddress(devices, src);
            if (d == null) {
                throw new CmException(CmError.ADDRESS_NOT_AVAILABLE, "resolve_addr: no soft device has source address " + src.getHostAddress());
            }
            if (bound != null && bound != d && !bound.name().equals(d.name())) {
                throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: the id is bound to " + bound.name()
                        + ", not to the device of " + src.getHostAddress());
            }
            return sameFamily(d, dst);
        }
        if (bound != null) {
            return sameFamily(bound, dst);
        }
        if (dst.isLoopbackAddress()) {
            Device own = null;
            for (Device d : devices) {
                InetAddress a = CmRegistry.address(d);
                if (a.getClass() != dst.getClass()) {
                    continue; // an IPv6 soft device (GID = its address) cannot reach an IPv4 peer, nor the reverse
                }
                if (a.isLoopbackAddress()) {
                    if (!a.equals(dst)) {
                        return d;
                    }
                    own = d;
                }
            }
            return own;
        }
        Device firstRemote = null;
        for (Device d : devices) {
            InetAddress a = CmRegistry.address(d);
            if (a.getClass() != dst.getClass()) {
                continue;
            }
            if (a.equals(dst)) {
                return d;
            }
            if (firstRemote == null && !a.isLoopbackAddress()) {
                firstRemote = d;
            }
        }
        return firstRemote;
    }

    /**
     * An IPv4 device cannot reach an IPv6 destination nor the reverse (its GID is of one
     * family): EINVAL, as rdma_resolve_addr gives for a source and destination of different
     * families.
     */
    private static Device sameFamily(Device d, InetAddress dst) {
        InetAddress a = CmRegistry.address(d);
        if (a.getClass() != dst.getClass()) {
            throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: source " + a.getHostAddress() + " ("
                    + d.name() + ") and destination " + dst.getHostAddress() + " are of different address families");
        }
        return d;
    }
}
