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
            return d;
        }
        if (bound != null) {
            return bound;
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
}
