package org.jrdma.soft;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.jrdma.soft.net.Datagrams;
import org.jrdma.soft.net.UdpDatagrams;

/** A real UDP socket behind a test's own {@link #send}: everything else goes straight to the socket, in one place. */
abstract class ForwardingDatagrams implements Datagrams {
    final UdpDatagrams real;

    ForwardingDatagrams(UdpDatagrams real) {
        this.real = real;
    }

    @Override
    public InetSocketAddress localAddress() {
        return real.localAddress();
    }

    @Override
    public InetSocketAddress receive(ByteBuffer buffer) throws IOException {
        return real.receive(buffer);
    }

    @Override
    public void await(long timeoutNanos) throws IOException {
        real.await(timeoutNanos);
    }

    @Override
    public void wakeup() {
        real.wakeup();
    }

    @Override
    public void close() throws IOException {
        real.close();
    }
}
