package org.jrdma.bootstrap.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jrdma.bootstrap.ExchangeListener;
import org.jrdma.bootstrap.PeerClosedException;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageChannel#peerClosed}: a look, without waiting, at whether the peer has closed
 * its end — and never at the cost of a message: what it reads while looking comes out of the
 * next readExactly, whole and in order.
 */
class PeerClosedLookTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** Looks until the peer's close has arrived, with a deadline (the FIN comes when it comes). */
    private static boolean closedWithin(MessageChannel c, Duration d) {
        long deadline = System.nanoTime() + d.toNanos();
        while (System.nanoTime() < deadline) {
            if (c.peerClosed()) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    @Test
    void aLookKeepsWhatArrivedForTheNextReadAndSeesTheCloseAfterIt() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                MessageChannel c = MessageChannel.connectTo("127.0.0.1", listener.getLocalPort(), WAIT, ExchangeListener.NONE);
                Socket peer = listener.accept()) {
            assertThat(c.peerClosed()).as("nothing sent, nothing closed").isFalse();
            OutputStream out = peer.getOutputStream();
            out.write("first message".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] first = new byte["first message".length()];
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (c.bytesReadAhead() < first.length && System.nanoTime() < deadline) { // looks read it all ahead
                assertThat(c.peerClosed()).isFalse();
            }
            assertThat(c.bytesReadAhead()).isEqualTo(first.length);
            c.readExactly(first, WAIT, "first", (b, n) -> { });
            assertThat(new String(first, StandardCharsets.US_ASCII)).isEqualTo("first message");

            out.write("last".getBytes(StandardCharsets.US_ASCII));
            peer.close(); // then the peer is gone, as a killed process's kernel closes its sockets
            assertThat(closedWithin(c, WAIT)).isTrue();
            byte[] last = new byte[4];
            c.readExactly(last, WAIT, "last", (b, n) -> { });
            assertThat(new String(last, StandardCharsets.US_ASCII)).isEqualTo("last");
            assertThatThrownBy(() -> c.readExactly(new byte[1], WAIT, "after", (b, n) -> { }))
                    .isInstanceOf(PeerClosedException.class);
        }
    }

    /** The prefix check sees bytes read ahead as they are handed out, so a bad message is still refused at once. */
    @Test
    void bytesReadAheadStillPassThePrefixCheck() throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                MessageChannel c = MessageChannel.connectTo("127.0.0.1", listener.getLocalPort(), WAIT, ExchangeListener.NONE);
                Socket peer = listener.accept()) {
            peer.getOutputStream().write(new byte[] {'X', 'Y'});
            peer.close();
            assertThat(closedWithin(c, WAIT)).isTrue(); // both bytes are ahead now
            assertThatThrownBy(() -> c.readExactly(new byte[5], WAIT, "peer's \"done\"", Done::check))
                    .hasMessageContaining("expected \"done\\x00\"");
        }
    }
}
