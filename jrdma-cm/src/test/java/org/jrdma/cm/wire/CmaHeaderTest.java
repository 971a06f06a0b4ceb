package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** rdma_cm's cma_hdr (§7.7), against the rping REQ and in both IP versions. */
class CmaHeaderTest {
    private static final InetAddress CLIENT = ip("10.77.0.3"), SERVER = ip("10.77.0.2");

    @Test
    void theRpingReqCarriesTheClientsPortAndBothAddresses() throws CmFormatException {
        byte[] pd = rpingReqPrivateData();
        CmaHeader h = CmaHeader.decode(pd);
        assertThat(h).isEqualTo(new CmaHeader(0, 4, 0xd468, CLIENT, SERVER));
        assertThat(h.sourcePort()).isEqualTo(54376);
        assertThat(CmaHeader.userData(pd)).hasSize(CmaHeader.USER_DATA_SIZE).containsOnly(0); // rping sends none
        assertThat(CmaHeader.of(54376, CLIENT, SERVER).withUserData(new byte[0])).isEqualTo(pd);
    }

    @Test
    void ipv4IsTwelveZeroBytesThenTheAddress() {
        byte[] pd = CmaHeader.of(0x1234, CLIENT, SERVER).withUserData(new byte[] {1, 2});
        assertThat(HexFormat.of().formatHex(pd, 0, 38)).isEqualTo("0040" + "1234"
                + "000000000000000000000000" + "0a4d0003" + "000000000000000000000000" + "0a4d0002" + "0102");
        assertThat(pd).hasSize(Req.PRIVATE_DATA_SIZE);
    }

    @Test
    void ipv6RoundTrips() throws CmFormatException {
        InetAddress src = ip("fe80::1"), dst = ip("2001:db8::2");
        byte[] user = "hello".getBytes();
        CmaHeader h = CmaHeader.of(7174, src, dst);
        assertThat(h.ipVersion()).isEqualTo(6);
        byte[] pd = h.withUserData(user);
        assertThat(pd[1]).isEqualTo((byte) 0x60);
        assertThat(HexFormat.of().formatHex(pd, 20, 36)).isEqualTo("20010db8000000000000000000000002");
        assertThat(CmaHeader.decode(pd)).isEqualTo(h);
        assertThat(CmaHeader.userData(pd)).startsWith(user).hasSize(56);
    }

    /** Java reads ::ffff:a.b.c.d as an Inet4Address; with IP version 6 it goes back mapped. */
    @Test
    void anIpv4PeerOfAnIpv6HeaderIsWrittenMapped() throws CmFormatException {
        CmaHeader h = CmaHeader.of(1, CLIENT, ip("2001:db8::2"));
        byte[] pd = h.withUserData(new byte[0]);
        assertThat(HexFormat.of().formatHex(pd, 4, 20)).isEqualTo("00000000000000000000ffff0a4d0003");
        CmaHeader back = CmaHeader.decode(pd);
        assertThat(back).isEqualTo(h);
        assertThat(back.source()).isInstanceOf(Inet4Address.class);
    }

    @Test
    void userDataBeyond56BytesIsRefused() {
        CmaHeader h = CmaHeader.of(1, CLIENT, SERVER);
        assertThat(h.withUserData(new byte[56])).hasSize(92);
        assertThatThrownBy(() -> h.withUserData(new byte[57])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rdma_connect private data is 57 bytes; at most 56");
    }

    @Test
    void decodeRefusesWhatLinuxRefuses() {
        byte[] pd = rpingReqPrivateData();
        pd[0] = 1;
        assertThat(refused(pd).field()).isEqualTo("cmaVersion");
        pd = rpingReqPrivateData();
        pd[1] = 0x50;
        assertThat(refused(pd).field()).isEqualTo("ipVersion");
        assertThat(refused(new byte[35]).field()).isEqualTo("privateData");
    }

    @Test
    void theRecordChecksItsFields() {
        assertThatThrownBy(() -> new CmaHeader(0, 5, 1, CLIENT, SERVER)).hasMessageContaining("ipVersion");
        assertThatThrownBy(() -> new CmaHeader(0, 4, 1, CLIENT, ip("::1"))).hasMessageContaining("ipVersion 4");
        assertThatThrownBy(() -> new CmaHeader(0, 4, 65536, CLIENT, SERVER)).hasMessageContaining("sourcePort");
        assertThatThrownBy(() -> new CmaHeader(256, 4, 1, CLIENT, SERVER)).hasMessageContaining("cmaVersion");
        assertThatThrownBy(() -> CmaHeader.userData(new byte[93])).isInstanceOf(IllegalArgumentException.class);
    }

    private static CmFormatException refused(byte[] pd) {
        return catchThrowableOfType(CmFormatException.class, () -> CmaHeader.decode(pd));
    }

    private static byte[] rpingReqPrivateData() {
        try {
            return CmCodec.decode(RpingMads.frame(1), 0, Mad.SIZE).message().privateData();
        } catch (CmFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }
}
