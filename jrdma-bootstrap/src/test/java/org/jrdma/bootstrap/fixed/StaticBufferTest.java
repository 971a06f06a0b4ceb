package org.jrdma.bootstrap.fixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.RemoteBuffer;
import org.jrdma.bootstrap.TestInfos;
import org.junit.jupiter.api.Test;

/** A static peer may name the buffer it exposes: {@code rkey} and {@code vaddr}, both or neither. */
class StaticBufferTest {
    private static final String PEER = """
            lid = 0
            qpn = 0x17
            psn = 0xe7692a
            gid = ::ffff:10.77.0.2
            """;

    @Test
    void rkeyAndVaddrGiveThePeersBufferFullWidthUnsigned() {
        ConnInfo peer = StaticExchange.fromConfigText(PEER + "rkey = 0xfedcba98\nvaddr = 0xffff800000001000\n")
                .exchange(TestInfos.CLIENT);
        assertThat(peer.buffer()).isEqualTo(new RemoteBuffer(0xffff800000001000L, 0xfedcba98));
        assertThat(peer.withBuffer(null)).isEqualTo(TestInfos.SERVER);
        assertThat(StaticExchange.fromConfigText(PEER + "rkey = 4660\nvaddr = 18446744073709551615\n").config().peer().buffer())
                .isEqualTo(new RemoteBuffer(-1L, 4660));
    }

    @Test
    void withoutThemThePeerExposesNothing() {
        assertThat(StaticExchange.fromConfigText(PEER).exchange(TestInfos.CLIENT).buffer()).isNull();
    }

    @Test
    void oneWithoutTheOtherOrOutOfRangeIsRefusedNamingTheKey() {
        refused(PEER + "rkey = 0x1234\n", "vaddr", "missing key");
        refused(PEER + "vaddr = 0x1000\n", "rkey", "missing key");
        refused(PEER + "rkey = 0x100000000\nvaddr = 0x1000\n", "rkey", "0x100000000");
        refused(PEER + "rkey = 4294967296\nvaddr = 0x1000\n", "rkey", "out of range");
        refused(PEER + "rkey = 1\nvaddr = 0x10000000000000000\n", "vaddr", "0x10000000000000000");
        refused(PEER + "rkey = 1\nvaddr = 18446744073709551616\n", "vaddr", "out of range");
        refused(PEER + "rkey = -1\nvaddr = 0\n", "rkey", "-1");
        refused(PEER + "rkey = 1\nrkey = 2\nvaddr = 0\n", "rkey", "duplicate");
    }

    private static void refused(String text, String field, String says) {
        assertThatThrownBy(() -> StaticExchange.fromConfigText(text)).isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo(field))
                .hasMessageContaining(says);
    }
}
