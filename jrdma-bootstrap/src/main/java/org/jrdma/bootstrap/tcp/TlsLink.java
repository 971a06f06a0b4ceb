package org.jrdma.bootstrap.tcp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.jrdma.bootstrap.AuthenticationException;
import org.jrdma.bootstrap.ExchangeIoException;
import org.jrdma.bootstrap.ExchangeStep;
import org.jrdma.bootstrap.ExchangeTimeoutException;
import org.jrdma.bootstrap.PeerClosedException;

/**
 * Mutual TLS 1.3 over the connected socket (AUTH-01's mTLS). JSSE works on blocking sockets, so
 * the absolute deadline of each step (OOB-03, OOB-04) is kept by one shared timer thread that
 * closes the socket when it passes; a read that then fails is reported as the timeout it is.
 * No thread is started per connection.
 */
final class TlsLink implements Link {
    private static final ScheduledExecutorService WATCHDOG = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "jrdma-tls-deadline");
        t.setDaemon(true);
        return t;
    });

    /** Sent by both sides once the TLS handshake is done; 8 bytes. */
    static final byte[] CONFIRM = "JRDMATLS".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final SSLSocket socket;
    private final String peer;
    private volatile boolean expired;

    private TlsLink(SSLSocket socket, String peer) {
        this.socket = socket;
        this.peer = peer;
    }

    /** Runs the TLS handshake; the server demands a client certificate. Closes the socket on failure. */
    static TlsLink handshake(MessageChannel channel, Handshake.Role role, SSLContext context, Duration timeout) {
        String peer = channel.peerAddress();
        SocketChannel raw;
        try {
            raw = channel.toBlocking();
        } catch (IOException e) {
            channel.close();
            throw new ExchangeIoException("switch to TLS", e);
        }
        TlsLink link = null;
        try {
            SSLSocket ssl = (SSLSocket) context.getSocketFactory().createSocket(raw.socket(), raw.socket().getInetAddress().getHostAddress(), raw.socket().getPort(), true);
            ssl.setEnabledProtocols(new String[] {"TLSv1.3"});
            ssl.setUseClientMode(role == Handshake.Role.CLIENT);
            if (role == Handshake.Role.SERVER) {
                ssl.setNeedClientAuth(true);
            }
            link = new TlsLink(ssl, peer);
            TlsLink l = link;
            link.step(ExchangeStep.READ, timeout, "TLS handshake with " + peer, () -> {
                l.socket.startHandshake();
                return null;
            });
            // In TLS 1.3 a client's handshake is complete before the server has checked the
            // client's certificate; a refusal arrives only with the next read. Each side
            // therefore sends a confirmation and waits for the peer's, so a refused client
            // learns it here — before RcConnector creates its QP (OOB-11).
            try {
                link.writeAll(CONFIRM, timeout, "our TLS confirmation");
                byte[] theirs = new byte[CONFIRM.length];
                link.readExactly(theirs, timeout, "peer's TLS confirmation", TlsLink::checkConfirm);
            } catch (ExchangeIoException | PeerClosedException e) {
                // The alert may lose the race with our write (a broken pipe instead of
                // "bad_certificate"); either way the peer refused to go on after the handshake.
                throw new AuthenticationException("TLS with " + peer + ": the peer ended the connection right after the"
                        + " handshake, as TLS 1.3 does when it refuses our certificate (" + e.getMessage() + ")", e);
            }
            return link;
        } catch (IOException e) {
            MessageChannel.closeQuietly(raw);
            throw new ExchangeIoException("TLS set-up", e);
        } catch (RuntimeException e) {
            if (link != null) {
                link.close();
            }
            MessageChannel.closeQuietly(raw);
            throw e;
        }
    }

    @Override
    public void writeAll(byte[] bytes, Duration timeout, String what) {
        step(ExchangeStep.WRITE, timeout, what, () -> {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            return null;
        });
    }

    @Override
    public void readExactly(byte[] into, Duration timeout, String what, PrefixCheck check) {
        step(ExchangeStep.READ, timeout, what, () -> {
            InputStream in = socket.getInputStream();
            int got = 0;
            while (got < into.length) {
                int n = in.read(into, got, into.length - got);
                if (n < 0) {
                    throw new PeerClosedException("read " + what, got, into.length);
                }
                got += n;
                check.check(into, got);
            }
            return null;
        });
    }

    @FunctionalInterface
    private interface Io {
        Void run() throws IOException;
    }

    /** Runs one blocking step with the socket closed at its absolute deadline, and types the failure. */
    private void step(ExchangeStep step, Duration timeout, String what, Io io) {
        ScheduledFuture<?> alarm = WATCHDOG.schedule(() -> {
            expired = true;
            MessageChannel.closeQuietly(socket);
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        try {
            io.run();
        } catch (IOException e) {
            if (expired) {
                throw new ExchangeTimeoutException(step, timeout, what);
            }
            if (e instanceof SSLException && !(e.getCause() instanceof SocketException)) {
                // Untrusted or missing certificate, wrong protocol version, bad record MAC: the
                // peer is not authenticated, and nothing of ours has been sent (OOB-11).
                throw new AuthenticationException("TLS with " + peer + " failed: " + e.getMessage(), e);
            }
            throw new ExchangeIoException(what, e);
        } finally {
            alarm.cancel(false);
        }
    }

    private static void checkConfirm(byte[] partial, int length) {
        if (!java.util.Arrays.equals(partial, 0, length, CONFIRM, 0, length)) {
            throw new org.jrdma.bootstrap.MalformedMessageException("confirmation", "expected \"JRDMATLS\", got "
                    + org.jrdma.bootstrap.Excerpt.of(partial, 0, length));
        }
    }

    @Override
    public java.net.InetAddress peerInetAddress() {
        return socket.getInetAddress();
    }

    @Override
    public String peerAddress() {
        return peer;
    }

    @Override
    public void close() {
        MessageChannel.closeQuietly(socket);
    }
}
