package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The sender's GID comes back out of both forms of the 40-byte GRH area (ROCEV2-FACTS §3.7). */
class GrhTest {
    @Test
    void ipv4AreaGivesTheIpv4MappedAddresses() throws Exception {
        byte[] area = new byte[Grh.BYTES];
        area[20] = 0x45;
        area[29] = 17;
        System.arraycopy(InetAddress.getByName("10.1.2.3").getAddress(), 0, area, 32, 4);
        System.arraycopy(InetAddress.getByName("10.9.8.7").getAddress(), 0, area, 36, 4);
        MemorySegment s = MemorySegment.ofArray(area);
        assertThat(Grh.sourceGid(s).toString()).isEqualTo("::ffff:10.1.2.3");
        assertThat(Grh.destinationGid(s).toString()).isEqualTo("::ffff:10.9.8.7");
        assertThat(Grh.sourceGid(s).toInetAddress()).isEqualTo(InetAddress.getByName("10.1.2.3"));
    }

    @Test
    void ipv6AreaGivesItsAddressesAndAnythingElseIsRefused() throws Exception {
        byte[] area = new byte[Grh.BYTES];
        area[0] = 0x60;
        area[6] = 17;
        System.arraycopy(InetAddress.getByName("fe80::1").getAddress(), 0, area, 8, 16);
        System.arraycopy(InetAddress.getByName("fe80::2").getAddress(), 0, area, 24, 16);
        assertThat(Grh.sourceGid(MemorySegment.ofArray(area)).toString()).isEqualTo("fe80::1");
        assertThat(Grh.destinationGid(MemorySegment.ofArray(area)).toString()).isEqualTo("fe80::2");
        assertThatThrownBy(() -> Grh.sourceGid(MemorySegment.ofArray(new byte[Grh.BYTES])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Grh.sourceGid(MemorySegment.ofArray(new byte[39])))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
