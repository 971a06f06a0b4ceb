package org.jrdma.cm;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.stream.Collectors;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Gid;

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
                throw noDeviceWith("resolve_addr: no soft device has source address", devices, src);
            }
            if (bound != null && bound != d && !bound.name().equals(d.name())) {
                throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: the id is bound to " + bound.name()
                        + ", not to the device of " + text(src));
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
     * Why {@link #choose} found no device for {@code dst}: the errno of the ADDR_ERROR and a
     * sentence naming the devices there are and what to do. No device of {@code dst}'s family
     * is ENODEV, as the kernel's cma_acquire_dev_by_src_ip gives when no RDMA device has a
     * fitting address; devices of the family that cannot reach it (all loopback for a remote
     * destination, or none loopback for a loopback one) stay ENETUNREACH.
     */
    static Miss miss(List<Device> devices, InetAddress dst) {
        boolean ipv6 = dst instanceof Inet6Address;
        String family = ipv6 ? "IPv6" : "IPv4";
        String have = inventory(devices);
        boolean anyOfFamily = devices.stream().anyMatch(d -> CmRegistry.address(d).getClass() == dst.getClass());
        if (!anyOfFamily) {
            return new Miss(CmError.NO_DEVICE, "resolve_addr: no " + family + " soft device to reach " + text(dst)
                    + " (" + have + "); make one with JRDMA_SOFT_DEVICES=NAME=" + (ipv6 ? "::1 or a local IPv6 address" : "a local IPv4 address"));
        }
        String why = dst.isLoopbackAddress() ? "none of them is on a loopback address" : "all of them are on loopback addresses";
        return new Miss(CmError.NETWORK_UNREACHABLE, "resolve_addr: no soft device can reach " + text(dst) + ": " + why
                + " (" + have + "); add one on a local address of that network with JRDMA_SOFT_DEVICES=NAME=ADDRESS");
    }

    /**
     * The error for an address that should be a local device's and is none's (a bind or source
     * address): EADDRNOTAVAIL, {@code lead} and the address, the devices there are, how to make one.
     */
    static CmException noDeviceWith(String lead, List<Device> devices, InetAddress address) {
        return new CmException(CmError.ADDRESS_NOT_AVAILABLE, lead + " " + text(address) + " (" + inventory(devices)
                + "); make one with JRDMA_SOFT_DEVICES=NAME=" + text(address));
    }

    /** "there are a=127.0.0.1, v6=::1", or "there are none". */
    private static String inventory(List<Device> devices) {
        return devices.isEmpty() ? "there are none"
                : "there are " + devices.stream().map(d -> d.name() + "=" + text(CmRegistry.address(d))).collect(Collectors.joining(", "));
    }

    /** An address as inet_ntop prints it ({@code ::1}, not Java's {@code 0:0:0:0:0:0:0:1}). */
    static String text(InetAddress a) {
        return a instanceof Inet6Address ? Gid.of(a).toString() : a.getHostAddress();
    }

    /** The kind of an ADDR_ERROR (its status is minus the errno) and its explanation. */
    record Miss(CmError error, String detail) {
    }

    /**
     * An IPv4 device cannot reach an IPv6 destination nor the reverse (its GID is of one
     * family): EINVAL, as rdma_resolve_addr gives for a source and destination of different
     * families.
     */
    private static Device sameFamily(Device d, InetAddress dst) {
        InetAddress a = CmRegistry.address(d);
        if (a.getClass() != dst.getClass()) {
            throw new CmException(CmError.INVALID_ARGUMENT, "resolve_addr: source " + text(a) + " ("
                    + d.name() + ") and destination " + text(dst) + " are of different address families");
        }
        return d;
    }
}
