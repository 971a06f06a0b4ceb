package org.jrdma.bootstrap.tcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A man in the middle for tests: accepts one client on an ephemeral loopback port, dials the
 * real server, copies bytes both ways and records them; it may flip one bit at a given offset
 * of one direction. When either side closes, both are closed, so a refusal ends both ends at once.
 */
final class Relay implements AutoCloseable {
    enum Direction { TO_SERVER, TO_CLIENT }

    private final ServerSocket listener;
    private final int serverPort;
    private final Direction flipDirection;
    private final long flipOffset;
    private final ByteArrayOutputStream toServer = new ByteArrayOutputStream();
    private final ByteArrayOutputStream toClient = new ByteArrayOutputStream();
    private volatile Socket a;
    private volatile Socket b;
    private final Thread acceptor;

    Relay(int serverPort) throws IOException {
        this(serverPort, null, -1);
    }

    Relay(int serverPort, Direction flipDirection, long flipOffset) throws IOException {
        this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.serverPort = serverPort;
        this.flipDirection = flipDirection;
        this.flipOffset = flipOffset;
        this.acceptor = Thread.ofVirtual().start(this::run);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void run() {
        try {
            a = listener.accept();
            b = new Socket();
            b.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), serverPort));
            Thread up = Thread.ofVirtual().start(() -> pump(a, b, toServer, flipDirection == Direction.TO_SERVER));
            Thread down = Thread.ofVirtual().start(() -> pump(b, a, toClient, flipDirection == Direction.TO_CLIENT));
            up.join();
            down.join();
        } catch (IOException | InterruptedException e) {
            // The test sees the consequence on its two ends.
        } finally {
            close();
        }
    }

    private void pump(Socket from, Socket to, ByteArrayOutputStream record, boolean flip) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buf = new byte[4096];
            long position = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                if (flip && flipOffset >= position && flipOffset < position + n) {
                    buf[(int) (flipOffset - position)] ^= 0x01;
                }
                position += n;
                synchronized (record) {
                    record.write(buf, 0, n);
                }
                out.write(buf, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // closed by the other pump or a peer's reset
        } finally {
            close();
        }
    }

    byte[] toServer() throws InterruptedException {
        acceptor.join(10_000);
        synchronized (toServer) {
            return toServer.toByteArray();
        }
    }

    byte[] toClient() throws InterruptedException {
        acceptor.join(10_000);
        synchronized (toClient) {
            return toClient.toByteArray();
        }
    }

    @Override
    public void close() {
        MessageChannel.closeQuietly(listener);
        MessageChannel.closeQuietly(a);
        MessageChannel.closeQuietly(b);
    }
}
