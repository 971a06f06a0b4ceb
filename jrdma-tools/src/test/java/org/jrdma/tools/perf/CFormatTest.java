package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.jrdma.bootstrap.KeyMessage;
import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;

/** C's {@code %#0Nx} and the address lines, against ROCEV2-FACTS §6.4 and captured perftest output. */
class CFormatTest {
    @Test
    void alternateHexFollowsC() {
        assertThat(CFormat.alternateHex(0, 4)).isEqualTo("0000"); // %#04x of 0: no 0x
        assertThat(CFormat.alternateHex(0, 6)).isEqualTo("000000");
        assertThat(CFormat.alternateHex(0x11, 6)).isEqualTo("0x0011");
        assertThat(CFormat.alternateHex(0x3e5c1a, 6)).isEqualTo("0x3e5c1a");
        assertThat(CFormat.alternateHex(0x1234, 8)).isEqualTo("0x001234");
        assertThat(CFormat.alternateHex(0x7f1234567000L, 16)).isEqualTo("0x007f1234567000");
        assertThat(CFormat.alternateHex(0x10, 4)).isEqualTo("0x10"); // ib_read_lat's "OUT 0x10"
        assertThat(CFormat.alternateHex(0x03, 4)).isEqualTo("0x03"); // an IB LID: "LID 0x03"
        assertThat(CFormat.alternateHex(0x1907, 4)).isEqualTo("0x1907");
        assertThat(CFormat.alternateHex(0x33431, 6)).isEqualTo("0x33431");
        assertThat(CFormat.alternateHex(0x18011b4c, 8)).isEqualTo("0x18011b4c"); // wider than the field
        assertThat(CFormat.alternateHex(0xeaeeb9d9, 8)).isEqualTo("0xeaeeb9d9"); // an int rkey is unsigned
        assertThat(CFormat.alternateHex(0x7f0e0c8aa000L, 16)).isEqualTo("0x007f0e0c8aa000");
        assertThat(CFormat.alternateHex(-1L, 16)).isEqualTo("0xffffffffffffffff");
    }

    private static KeyMessage example() throws Exception {
        return new KeyMessage(0, 16, 0x11, 0x3e5c1a, 0x1234, 0x7f1234567000L,
                Gid.of(InetAddress.getByName("192.168.1.1")), 0);
    }

    @Test
    void theAddressLineOfSection64() throws Exception {
        assertThat(Banner.address("local", example(), Verb.WRITE))
                .isEqualTo(" local address: LID 0000 QPN 0x0011 PSN 0x3e5c1a RKey 0x001234 VAddr 0x007f1234567000");
    }

    @Test
    void readAddsOutstandingReadsAndSendOrAtomicsOnlyTheBasics() throws Exception {
        assertThat(Banner.address("remote", example(), Verb.READ))
                .isEqualTo(" remote address: LID 0000 QPN 0x0011 PSN 0x3e5c1a OUT 0x10 RKey 0x001234 VAddr 0x007f1234567000");
        assertThat(Banner.address("local", example(), Verb.SEND)).isEqualTo(" local address: LID 0000 QPN 0x0011 PSN 0x3e5c1a");
        assertThat(Banner.address("local", example(), Verb.ATOMIC)).isEqualTo(" local address: LID 0000 QPN 0x0011 PSN 0x3e5c1a");
    }

    @Test
    void theGidLineIsDecimal() throws Exception {
        assertThat(Banner.gid(example().gid())).isEqualTo(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:01");
        assertThat(Banner.gid(Gid.of(InetAddress.getByName("10.255.255.5"))))
                .isEqualTo(" GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:255:255:05");
    }
}
