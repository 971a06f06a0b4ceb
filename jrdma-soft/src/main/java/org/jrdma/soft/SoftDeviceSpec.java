package org.jrdma.soft;

import java.net.InetAddress;

/**
 * A soft device: a name and the local IP address its UDP port 4791 is bound to.
 *
 * @param name the device name tools select with {@code -d}
 * @param address a local address: IPv4 (GID ::ffff:a.b.c.d) or IPv6 (GID = the address)
 * @param ethernetMtu the interface MTU; the port's active IB MTU follows from it as in rxe
 * @param loopbackFallback when the address is taken (another process's device) and it is a
 *     loopback address, move to the next free 127.0.0.x instead of failing — so that two
 *     processes started with no flags both get a device (DESIGN: they must not collide)
 */
public record SoftDeviceSpec(String name, InetAddress address, int ethernetMtu, boolean loopbackFallback) {
}
