package org.jrdma.tools.options;

import java.net.InetAddress;
import org.jrdma.bootstrap.BootstrapException;
import org.jrdma.bootstrap.tcp.HostName;
import org.jrdma.bootstrap.tcp.SameHost;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProviderChoice;

/**
 * The one place pingpong and perf decide their device from where the peer is: with
 * {@code --provider auto} (or none) and no {@code -d}, a peer on this host — the client's server
 * address, the server's accepted connection, as {@link SameHost} says — gets shm's device when
 * the choice offers one and no NIC ({@link ProviderChoice.Choice#deviceFor}); otherwise the
 * device is what it always was. Both sides apply the same rule, so two jrdma processes in auto
 * agree; a peer that does not (rdma-core's, another --provider) is told by the GID check of the
 * bootstrap (ProviderMismatchException).
 *
 * @param device the device to open
 * @param why    one line saying why, for the tool's notices; null when the peer did not matter
 */
public record PeerDevice(Device device, String why) {
    /**
     * Whether the peer's place changes the device: only then must a server open its device after
     * it accepted, and a client resolve the server's name before it opens one.
     *
     * @param choice the provider choice
     * @param name   the {@code -d} given, or null
     * @return true when a peer on this host would get another device than a remote one
     */
    public static boolean dependsOnPeer(ProviderChoice.Choice choice, String name) {
        // a choice without devices fails both ways alike (device(name) says why)
        return !choice.devices().isEmpty() && choice.deviceFor(name, true) != choice.deviceFor(name, false);
    }

    /**
     * The device when the peer is not known yet, or does not matter: {@code -d}'s, else the first.
     *
     * @param choice the provider choice
     * @param name   the {@code -d} given, or null
     * @return the device, with no reason to print
     */
    public static PeerDevice without(ProviderChoice.Choice choice, String name) {
        return new PeerDevice(choice.device(name), null);
    }

    /**
     * A client's device: when it depends on the peer, the server's name is resolved (a name that
     * does not resolve counts as remote: the connect then fails saying so).
     *
     * @param choice the provider choice
     * @param name   the {@code -d} given, or null
     * @param host   the server, as given
     * @return the device and why
     */
    public static PeerDevice forServerAt(ProviderChoice.Choice choice, String name, String host) {
        if (!dependsOnPeer(choice, name)) {
            return without(choice, name);
        }
        boolean local;
        try {
            local = SameHost.allLocal(HostName.resolve(host));
        } catch (BootstrapException e) {
            local = false;
        }
        return chosen(choice, local, "the server " + host);
    }

    /**
     * A server's device, once it accepted its client from {@code peer}.
     *
     * @param choice the provider choice
     * @param name   the {@code -d} given, or null
     * @param peer   the client's address as the accepted connection has it; null if unknown (remote)
     * @return the device and why
     */
    public static PeerDevice forClientFrom(ProviderChoice.Choice choice, String name, InetAddress peer) {
        if (!dependsOnPeer(choice, name)) {
            return without(choice, name);
        }
        return chosen(choice, peer != null && SameHost.isLocal(peer),
                "the client " + (peer == null ? "(address unknown)" : HostName.text(peer)));
    }

    private static PeerDevice chosen(ProviderChoice.Choice choice, boolean local, String peer) {
        Device d = choice.deviceFor(null, local);
        return new PeerDevice(d, "provider " + d.provider() + ", device " + d.name() + ": " + peer
                + (local ? " is on this host" : " is not on this host") + " (--provider auto, no -d; -d or --provider to choose)");
    }
}
