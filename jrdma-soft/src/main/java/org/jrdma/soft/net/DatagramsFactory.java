package org.jrdma.soft.net;

import java.io.IOException;
import java.net.InetSocketAddress;

/** Opens a device's packet channel on a local address (a real UDP socket, or a test's wrapper). */
@FunctionalInterface
public interface DatagramsFactory {
    /** The real one: a UDP socket bound to the address. */
    DatagramsFactory UDP = local -> UdpDatagrams.bind(local.getAddress(), local.getPort());

    /**
     * The native door: {@link NativeDatagrams}, a socket driven through libc. Where it is
     * unavailable, opening is an IOException that says why.
     */
    DatagramsFactory NATIVE = local -> NativeDatagrams.bind(local.getAddress(), local.getPort());

    /** {@link #NATIVE} when this JVM can use it, else {@link #UDP} ({@link DatagramsChoice#auto()} keeps the reason). */
    DatagramsFactory AUTO = local -> DatagramsChoice.auto().factory().open(local);

    /** @throws java.net.BindException when the address and port are taken */
    Datagrams open(InetSocketAddress local) throws IOException;
}
