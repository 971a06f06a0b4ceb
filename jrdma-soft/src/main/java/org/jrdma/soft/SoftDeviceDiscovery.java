package org.jrdma.soft;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * Which soft devices exist. By default one per local IPv4 interface address, loopback first
 * (as {@code rdma link add rxe0 type rxe netdev eth0} makes one per netdev), named
 * {@code soft_<interface>}; {@code JRDMA_SOFT_DEVICES=name=address[,name=address…]} (or the
 * system property {@code jrdma.soft.devices}) replaces that set. An address is IPv4 (GID
 * {@code ::ffff:a.b.c.d}) or IPv6 (GID = the address itself, e.g. {@code v6=::1} or
 * {@code v6=fd00::1}); IPv6 devices are only made on request, never by interface discovery.
 */
public final class SoftDeviceDiscovery {
    public static final String ENV = "JRDMA_SOFT_DEVICES";
    public static final String PROPERTY = "jrdma.soft.devices";
    private static final int LOOPBACK_MTU = 65536;

    private SoftDeviceDiscovery() {
    }

    public static List<SoftDeviceSpec> discover() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null) {
            configured = System.getenv(ENV);
        }
        if (configured != null && !configured.isBlank()) {
            return parse(configured);
        }
        return fromInterfaces();
    }

    /** Parses {@code name=address[,name=address…]}; every error names the entry at fault. */
    public static List<SoftDeviceSpec> parse(String text) {
        List<SoftDeviceSpec> specs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<InetAddress> addresses = new HashSet<>();
        for (String raw : text.split(",")) {
            String entry = raw.strip();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw bad(entry, "expected name=address");
            }
            String name = entry.substring(0, eq).strip();
            String addr = entry.substring(eq + 1).strip();
            if (!name.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw bad(entry, "a device name is 1–64 letters, digits, '_', '.' or '-'");
            }
            InetAddress ip = address(entry, addr);
            if (!names.add(name)) {
                throw bad(entry, "duplicate device name");
            }
            if (!addresses.add(ip)) {
                throw bad(entry, "duplicate address");
            }
            specs.add(new SoftDeviceSpec(name, ip, mtuOf(ip), false));
        }
        if (specs.isEmpty()) {
            throw new VerbsException(Errno.EINVAL, ENV + " is set but names no device");
        }
        return List.copyOf(specs);
    }

    /**
     * A dotted IPv4 address, or an IPv6 literal (optionally in brackets) whose GID is the address
     * itself. Never a host name. Refused: IPv6 link-local (fe80::/10 needs a scope this version
     * does not carry in a GID), multicast, the unspecified address, and scoped literals (%eth0).
     */
    private static InetAddress address(String entry, String addr) {
        if (addr.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            try {
                return InetAddress.getByName(addr);
            } catch (UnknownHostException e) {
                throw bad(entry, "not an IPv4 address");
            }
        }
        String v6 = addr.startsWith("[") && addr.endsWith("]") ? addr.substring(1, addr.length() - 1) : addr;
        if (!v6.contains(":") || !v6.matches("[0-9A-Fa-f:.]{2,45}")) {
            throw bad(entry, "the address must be a dotted IPv4 address or an IPv6 literal (e.g. 10.0.0.1, ::1, fd00::1)"
                    + (v6.contains("%") ? "; scoped IPv6 addresses (%if) are not supported" : ""));
        }
        InetAddress ip;
        try {
            ip = InetAddress.ofLiteral(v6);
        } catch (IllegalArgumentException e) {
            throw bad(entry, "not an IPv6 address");
        }
        // ::ffff:a.b.c.d parses to an Inet4Address: that is an IPv4 device with the same GID.
        if (ip instanceof java.net.Inet6Address) {
            if (ip.isLinkLocalAddress()) {
                throw bad(entry, "IPv6 link-local addresses (fe80::/10) are not supported; use a global or ULA address (fd00::/8)");
            }
            if (ip.isMulticastAddress() || ip.isAnyLocalAddress()) {
                throw bad(entry, "a device address must be a unicast address");
            }
        }
        return ip;
    }

    private static VerbsException bad(String entry, String why) {
        return new VerbsException(Errno.EINVAL, ENV + ": bad entry '" + entry + "': " + why);
    }

    private static int mtuOf(InetAddress ip) {
        if (ip.isLoopbackAddress()) {
            return LOOPBACK_MTU;
        }
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(ip);
            if (nif != null) {
                return nif.getMTU();
            }
        } catch (SocketException e) {
            // fall through to the Ethernet default
        }
        return 1500;
    }

    private static List<SoftDeviceSpec> fromInterfaces() {
        List<NetworkInterface> nifs;
        try {
            nifs = Collections.list(NetworkInterface.getNetworkInterfaces());
        } catch (SocketException e) {
            throw new VerbsException(Errno.ENODEV, "cannot list network interfaces: " + e.getMessage(), e);
        }
        nifs.sort(Comparator.comparing((NetworkInterface n) -> !isLoopback(n)).thenComparing(NetworkInterface::getIndex));
        List<SoftDeviceSpec> specs = new ArrayList<>();
        for (NetworkInterface nif : nifs) {
            if (!isUp(nif)) {
                continue;
            }
            List<InetAddress> v4 = new ArrayList<>();
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet4Address) {
                    v4.add(a);
                }
            }
            for (int i = 0; i < v4.size(); i++) {
                String name = "soft_" + nif.getName().replaceAll("[^A-Za-z0-9_.-]", "_") + (i == 0 ? "" : "_" + i);
                InetAddress a = v4.get(i);
                int mtu = isLoopback(nif) ? LOOPBACK_MTU : mtu(nif);
                specs.add(new SoftDeviceSpec(name, a, mtu, a.isLoopbackAddress()));
            }
        }
        return List.copyOf(specs);
    }

    private static boolean isLoopback(NetworkInterface n) {
        try {
            return n.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }

    private static boolean isUp(NetworkInterface n) {
        try {
            return n.isUp();
        } catch (SocketException e) {
            return false;
        }
    }

    private static int mtu(NetworkInterface n) {
        try {
            return n.getMTU();
        } catch (SocketException e) {
            return 1500;
        }
    }
}
