package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class GidTest {
    @Test
    void ipv4MappedGidPrintsLikeInetNtop() throws Exception {
        Gid g = Gid.of(InetAddress.getByName("192.168.1.1"));
        assertThat(g.toHex()).isEqualTo("00000000000000000000ffffc0a80101");
        assertThat(g.toString()).isEqualTo("::ffff:192.168.1.1");
        assertThat(g.isIpv4Mapped()).isTrue();
        assertThat(g.toInetAddress()).isEqualTo(InetAddress.getByName("192.168.1.1"));
        assertThat(Gid.fromHex(g.toHex())).isEqualTo(g);
    }

    @Test
    void otherGids() throws Exception {
        assertThat(Gid.ZERO.toString()).isEqualTo("::");
        assertThat(Gid.ZERO.isZero()).isTrue();
        Gid v6 = Gid.of(InetAddress.getByName("fe80::1:2"));
        assertThat(v6.toString()).isEqualTo("fe80::1:2");
        assertThat(v6.isIpv4Mapped()).isFalse();
        assertThat(Gid.fromHex("ff020000000000000000000000000001").isMulticast()).isTrue();
        assertThat(Gid.fromHex("20010db8000000010000000000000001").toString()).isEqualTo("2001:db8:0:1::1");
        assertThat(v6.interfaceId()).isEqualTo(0x10002L);
    }
}
