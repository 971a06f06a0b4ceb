package org.jrdma.tools.rc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code -c}'s rule, message by message, without a network (README, "Two processes"). */
class MessageCheckTest {
    private static final int S = RcEndpoint.SERVER_SALT;
    private static final int C = RcEndpoint.CLIENT_SALT;
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    private MemorySegment jrdma(int size, long i, int salt) {
        MemorySegment m = arena.allocate(Math.max(1, size));
        PingpongMessage.write(m, 0, size, i, salt);
        return m;
    }

    /** rc_pingpong -c's client's first buffer: 0x7b, a zero at each page start. */
    private MemorySegment rdmaCoreFirst(int size) {
        MemorySegment m = arena.allocate(size).fill((byte) 0x7b);
        for (int p = 0; p < size; p += PingpongMessage.PAGE_BYTES) {
            m.set(ValueLayout.JAVA_BYTE, p, (byte) 0);
        }
        return m;
    }

    private MessageCheck server(int size) {
        return new MessageCheck("server", true, S, C, size, arena);
    }

    private MessageCheck client(int size) {
        return new MessageCheck("client", false, C, S, size, arena);
    }

    @Test
    void aJrdmaMessageHasAZeroAtEveryPageStartAndTheMarker() {
        MemorySegment m = jrdma(3 * 4096 + 5, 7, C);
        for (int p = 0; p < m.byteSize(); p += 4096) {
            assertThat(m.get(ValueLayout.JAVA_BYTE, p)).as("byte %d", p).isZero();
        }
        assertThat(PingpongMessage.markedSalt(m, 0, (int) m.byteSize())).isEqualTo(C);
        assertThat(PingpongMessage.markedIteration(m, 0)).isEqualTo(7);
        assertThat(PingpongMessage.firstNonZeroPageStart(m, 0, (int) m.byteSize())).isEqualTo(-1);
    }

    @Test
    void everyByteOfAJrdmaPeersMessageIsChecked() {
        int size = 9000;
        SplittableRandom random = new SplittableRandom(12);
        for (int trial = 0; trial < 200; trial++) {
            MessageCheck check = server(size);
            check.received(jrdma(size, 0, C), 0, 0);
            MemorySegment m = jrdma(size, 1, C);
            int at = random.nextInt(size);
            m.set(ValueLayout.JAVA_BYTE, at, (byte) (m.get(ValueLayout.JAVA_BYTE, at) ^ (1 + random.nextInt(255))));
            assertThatThrownBy(() -> check.received(m, 0, 1)).isInstanceOf(VerbsException.class)
                    .hasMessageContaining("message 1 differs at byte " + at + " (");
        }
    }

    @Test
    void aCorruptedByteInTheFirstMessageOfAJrdmaClientIsCaughtByItsMarker() {
        MemorySegment m = jrdma(9000, 0, C);
        m.set(ValueLayout.JAVA_BYTE, 5000, (byte) (m.get(ValueLayout.JAVA_BYTE, 5000) + 1));
        assertThatThrownBy(() -> server(9000).received(m, 0, 0))
                .hasMessageContaining("message 0 differs at byte 5000 (").hasMessageContaining("from the jrdma client)");
    }

    @Test
    void anRdmaCoreClientsFirstMessageByItsRuleThenOnlyEchoesOfOurs() {
        int size = 9000;
        MessageCheck check = server(size);
        check.received(rdmaCoreFirst(size), 0, 0);
        check.received(jrdma(size, 0, S), 0, 1); // it sends back our message 0
        check.received(jrdma(size, 1, S), 0, 2);
        assertThatThrownBy(() -> check.received(jrdma(size, 1, S), 0, 3)).as("a stale echo")
                .hasMessageContaining("message 3 differs at byte 9 (").hasMessageContaining("an echo of our message 2");
        assertThatThrownBy(() -> check.received(jrdma(size, 3, C), 0, 3)).as("an rdma-core client never sends its own again")
                .hasMessageContaining("message 3 differs at byte 5 (");
        assertThat(check.summary()).startsWith("3 messages verified (the client is not jrdma");
    }

    @Test
    void anRdmaCoreFirstMessageWithoutItsPageStartZerosIsRefusedNamingThePage() {
        MemorySegment m = rdmaCoreFirst(9000);
        m.set(ValueLayout.JAVA_BYTE, 8192, (byte) 0x7b);
        assertThatThrownBy(() -> server(9000).received(m, 0, 0))
                .hasMessageContaining("message 0 has 0x7b at byte 8192, the start of page 2, not 0");
    }

    @Test
    void aClientAcceptsTheJrdmaServersMessagesOrExactEchoesOfItsOwnNothingElse() {
        int size = 4096;
        MessageCheck jrdmaPeer = client(size);
        jrdmaPeer.received(jrdma(size, 0, S), 0, 0);
        assertThatThrownBy(() -> jrdmaPeer.received(jrdma(size, 1, C), 0, 1)).as("a jrdma server never echoes")
                .hasMessageContaining("from the jrdma server");
        MessageCheck echoing = client(size);
        echoing.received(jrdma(size, 0, C), 0, 0);
        echoing.received(jrdma(size, 1, C), 0, 1);
        assertThat(echoing.summary()).startsWith("2 messages verified (the server is not jrdma: all are echoes of ours");
        assertThatThrownBy(() -> client(size).received(rdmaCoreFirst(size), 0, 0)).as("no rule-only message for a client")
                .hasMessageContaining("message 0 differs at byte 1 (0x7b, expected 0x6a; neither the jrdma server's nor an echo of ours");
    }

    @Test
    void messagesShorterThanTheMarkerAreStillComparedWhole() {
        for (int size = 1; size < PingpongMessage.HEADER_BYTES; size++) {
            assertThat(PingpongMessage.markedSalt(jrdma(size, 0, S), 0, size)).isEqualTo(-1);
            MessageCheck check = client(size);
            check.received(jrdma(size, 0, S), 0, 0);
            check.received(jrdma(size, 1, S), 0, 1);
            if (size > 1) {
                int n = size;
                assertThatThrownBy(() -> check.received(jrdma(n, 1, C), 0, 2)).as("size %d", size).isInstanceOf(VerbsException.class);
            }
        }
    }
}
