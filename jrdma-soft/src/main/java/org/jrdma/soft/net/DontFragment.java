package org.jrdma.soft.net;

import java.io.IOException;
import java.nio.channels.DatagramChannel;
import jdk.net.ExtendedSocketOptions;

/**
 * IP_DONTFRAGMENT on a {@link UdpDatagrams} socket, through jdk.net's ExtendedSocketOptions.
 *
 * <p>On the module path org.jrdma.soft requires jdk.net, so it is there. On the class path a
 * runtime image may lack it (a jlink image of java.base): naming ExtendedSocketOptions would then
 * be a NoClassDefFoundError in the middle of opening a device. Instead the socket goes without DF
 * and the log says once what that costs, so the device still opens.
 */
final class DontFragment {
    private static final System.Logger LOG = System.getLogger(DontFragment.class.getName());

    /** Whether this runtime has jdk.net (on the class path the unnamed module reads every boot module). */
    static final boolean JDK_NET = ModuleLayer.boot().findModule("jdk.net").isPresent();

    private static volatile boolean warned;

    private DontFragment() {
    }

    /**
     * Sets IP_DONTFRAGMENT where the runtime and the socket support it.
     *
     * @return whether it was set
     */
    static boolean set(DatagramChannel channel) throws IOException {
        if (!JDK_NET) {
            if (!warned) {
                warned = true;
                LOG.log(System.Logger.Level.WARNING, "this Java runtime has no jdk.net module: soft devices"
                        + " send without IP_DONTFRAGMENT, so Linux writes non-zero IPv4 identifications,"
                        + " which the ICRC covers (rxe and RoCE NICs will drop these packets; soft devices"
                        + " still talk to each other). Add jdk.net to the image (jlink --add-modules jdk.net)"
                        + " or use the native datagram path (--enable-native-access)");
            }
            return false;
        }
        return Option.set(channel);
    }

    /** The only class that names jdk.net: loaded only when the module is there. */
    private static final class Option {
        static boolean set(DatagramChannel channel) throws IOException {
            if (!channel.supportedOptions().contains(ExtendedSocketOptions.IP_DONTFRAGMENT)) {
                return false;
            }
            channel.setOption(ExtendedSocketOptions.IP_DONTFRAGMENT, true);
            return true;
        }
    }
}
