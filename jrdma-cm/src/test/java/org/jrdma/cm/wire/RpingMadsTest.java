package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The rping capture (Linux rdma_cm over rxe, 10.77.0.3 → 10.77.0.2, port 7174): every field a human
 * can check against rping.exemplars.txt, and decode → encode gives the kernel's bytes back.
 */
class RpingMadsTest {
    /** The active side's TID: its MAD agent's hi_tid 2 and its comm ID (§7.10); all five reuse it. */
    private static final long TID = 0x00000002_556be982L;
    private static final int CLIENT_COMM_ID = 0x82e96b55, SERVER_COMM_ID = 0xa464e488;
    private static final int CLIENT_QPN = 0x1c, SERVER_QPN = 0x21;

    static final java.util.List<RpingMads.Frame> frames = RpingMads.ALL;

    @ParameterizedTest(name = "{0}")
    @FieldSource("frames")
    void decodeThenEncodeIsByteIdentical(RpingMads.Frame f) throws CmFormatException {
        CmMad cm = CmCodec.decode(f.mad(), 0, f.mad().length);
        assertThat(cm.header()).isEqualTo(MadHeader.cm(TID, cm.message().attribute().id()));

        ByteBuffer out = ByteBuffer.allocate(Mad.SIZE);
        CmCodec.encode(cm.header(), cm.message(), out);
        assertThat(out.array()).isEqualTo(f.mad());
        assertThat(CmCodec.encode(TID, cm.message())).isEqualTo(f.mad());
    }

    @Test
    void frames1to41AreReqRepRtuDreqDrep() {
        assertThat(frames).extracting(f -> f.comment().substring(0, f.comment().indexOf(" (")))
                .containsExactly("# frame 1: REQ", "# frame 2: REP", "# frame 3: RTU", "# frame 40: DREQ",
                        "# frame 41: DREP");
    }

    @Test
    void req() throws CmFormatException {
        Req r = (Req) decode(1);
        assertThat(r.localCommId()).isEqualTo(CLIENT_COMM_ID);
        assertThat(r.eceVendorId()).isZero();
        assertThat(r.serviceId()).isEqualTo(0x0000000001061c06L); // RDMA_PS_TCP, port 7174
        assertThat(r.localCaGuid()).isEqualTo(0x505400fffe770003L);
        assertThat(r.localQkey()).isZero();
        assertThat(r.localQpn()).isEqualTo(CLIENT_QPN);
        assertThat(r.responderResources()).isEqualTo(1);
        assertThat(r.localEecn()).isZero();
        assertThat(r.initiatorDepth()).isEqualTo(1);
        assertThat(r.remoteEecn()).isZero();
        assertThat(r.remoteCmResponseTimeout()).isEqualTo(CmDefaults.CM_RESPONSE_TIMEOUT);
        assertThat(r.transportServiceType()).isZero(); // RC
        assertThat(r.endToEndFlowControl()).isFalse();
        assertThat(r.startingPsn()).isEqualTo(0x6dea84);
        assertThat(r.localCmResponseTimeout()).isEqualTo(CmDefaults.CM_RESPONSE_TIMEOUT);
        assertThat(r.retryCount()).isEqualTo(7);
        assertThat(r.partitionKey()).isEqualTo(0xffff);
        assertThat(r.pathMtu()).isEqualTo(3); // 1024: iboe_get_mtu(1500)
        assertThat(r.rdcExists()).isFalse();
        assertThat(r.rnrRetryCount()).isEqualTo(7);
        assertThat(r.maxCmRetries()).isEqualTo(CmDefaults.MAX_CM_RETRIES);
        assertThat(r.srq()).isFalse();
        assertThat(r.extendedTransportType()).isZero();
        assertThat(r.alternatePath()).isEqualTo(PathInfo.NONE);
        assertThat(r.sapSupported()).isFalse();

        PathInfo p = r.primaryPath();
        assertThat(p.localLid()).isEqualTo(0xffff); // permissive: hop limit > 1 (§7.8)
        assertThat(p.remoteLid()).isEqualTo(0xffff);
        assertThat(p.localGid()).isEqualTo(hex("00000000000000000000ffff0a4d0003")); // ::ffff:10.77.0.3
        assertThat(p.remoteGid()).isEqualTo(hex("00000000000000000000ffff0a4d0002"));
        // Wireshark shows 0x009d4 and rate 0x1d here: it reads the word one byte early. The bytes are
        // 9d 49 e0 00, and 0x9d49e = (54376 * 31 + 7174) mod 2^20 is rdma_cm's hash of the ports.
        assertThat(p.flowLabel()).isEqualTo(0x9d49e);
        assertThat(p.packetRate()).isZero();
        assertThat(p.trafficClass()).isZero();
        assertThat(p.hopLimit()).isEqualTo(64);
        assertThat(p.sl()).isZero();
        assertThat(p.subnetLocal()).isFalse();
        assertThat(p.localAckTimeout()).isEqualTo(19).isEqualTo(CmDefaults.ackTimeout(15, 18));

        assertThat(ServiceId.portSpace(r.serviceId())).isEqualTo(PortSpace.TCP);
        assertThat(ServiceId.port(r.serviceId())).isEqualTo(7174);
        CmaHeader cma = CmaHeader.decode(r.privateData());
        assertThat(cma.ipVersion()).isEqualTo(4);
        assertThat(cma.sourcePort()).isEqualTo(0xd468);
        assertThat(cma.source().getHostAddress()).isEqualTo("10.77.0.3");
        assertThat(cma.destination().getHostAddress()).isEqualTo("10.77.0.2");
    }

    @Test
    void rep() throws CmFormatException {
        Rep r = (Rep) decode(2);
        assertThat(r.localCommId()).isEqualTo(SERVER_COMM_ID);
        assertThat(r.remoteCommId()).isEqualTo(CLIENT_COMM_ID);
        assertThat(r.localQkey()).isZero();
        assertThat(r.localQpn()).isEqualTo(SERVER_QPN);
        assertThat(r.eceVendorId()).isZero();
        assertThat(r.localEecn()).isZero();
        assertThat(r.startingPsn()).isEqualTo(0x01c5d9);
        assertThat(r.responderResources()).isEqualTo(1);
        assertThat(r.initiatorDepth()).isEqualTo(1);
        assertThat(r.targetAckDelay()).isEqualTo(15); // rxe's CA ACK delay
        assertThat(r.failoverAccepted()).isZero();
        assertThat(r.endToEndFlowControl()).isFalse();
        assertThat(r.rnrRetryCount()).isEqualTo(7);
        assertThat(r.srq()).isFalse();
        assertThat(r.localCaGuid()).isEqualTo(0x505400fffe770002L);
        assertThat(r.privateData()).hasSize(196).containsOnly(0);
    }

    @Test
    void rtu() throws CmFormatException {
        assertThat(decode(3)).isEqualTo(new Rtu(CLIENT_COMM_ID, SERVER_COMM_ID, null));
    }

    @Test
    void dreqNamesThePeersQp() throws CmFormatException {
        assertThat(decode(40)).isEqualTo(new Dreq(CLIENT_COMM_ID, SERVER_COMM_ID, SERVER_QPN, new byte[0]));
    }

    @Test
    void drep() throws CmFormatException {
        assertThat(decode(41)).isEqualTo(new Drep(SERVER_COMM_ID, CLIENT_COMM_ID, null));
    }

    private static CmMessage decode(int frame) throws CmFormatException {
        return CmCodec.decode(RpingMads.frame(frame), 0, Mad.SIZE).message();
    }

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }
}
