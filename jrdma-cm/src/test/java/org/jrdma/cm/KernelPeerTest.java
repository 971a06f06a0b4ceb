package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.cm.Cm.ack;
import static org.jrdma.cm.Cm.expect;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.cm.wire.CmCodec;
import org.jrdma.cm.wire.CmMad;
import org.jrdma.cm.wire.Dreq;
import org.jrdma.cm.wire.Drep;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.Rep;
import org.jrdma.cm.wire.Req;
import org.jrdma.cm.wire.Rtu;
import org.jrdma.cm.wire.ServiceId;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Our passive side against the REQ Linux's rdma_cm sent in the rxe rping capture (conformance
 * rxe/rping.pcap, frame 1): CONNECT_REQUEST with the kernel's parameters swapped, the QP in RTS
 * with the kernel's QPN and Starting PSN as its send PSN (§7.8), a REP that answers with the
 * REQ's TID and comm ID, ESTABLISHED on an RTU, and the DREQ/DREP exchange.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KernelPeerTest extends CmFixture {
    private InMemoryMadNetwork network;
    private CmOptions options;
    private final List<byte[]> sent = new CopyOnWriteArrayList<>();

    @BeforeAll
    void devices() {
        network = new InMemoryMadNetwork(3);
        network.tap = sent::add;
        serverDevice = TestDevices.fresh("krs");
        clientDevice = TestDevices.fresh("krc");
        options = Cm.options(List.<Device>of(serverDevice, clientDevice), network);
    }

    @AfterAll
    void stop() {
        network.close();
    }

    @Override
    protected CmOptions options() {
        return options;
    }

    @Test
    void theKernelsRpingReqIsAcceptedAndAnsweredAsTheKernelWould() throws Exception {
        byte[] reqMad = frames().get(1);
        CmMad kernel = CmCodec.decode(reqMad, 0, reqMad.length);
        Req req = (Req) kernel.message();
        InetAddress rpingClient = InetAddress.getByName("10.77.0.3");
        CmId listener = track(CmId.create(server, PortSpace.TCP, "rping server"));
        listener.bindAddr(new InetSocketAddress("0.0.0.0", ServiceId.port(req.serviceId())));
        listener.listen(1);

        network.inject(rpingClient, 1, CmRegistry.address(serverDevice), reqMad);
        CmEvent event = expect(server, CmEventType.CONNECT_REQUEST);
        assertThat(event.param().qpNum()).isEqualTo(req.localQpn());
        assertThat(event.param().responderResources()).isEqualTo(req.initiatorDepth());
        assertThat(event.param().initiatorDepth()).isEqualTo(req.responderResources());
        assertThat(event.privateData()).hasSize(56);
        CmId id = track(event.id());
        assertThat(id.peerAddress().getAddress()).isEqualTo(rpingClient);
        assertThat(id.localAddress().getAddress()).isEqualTo(InetAddress.getByName("10.77.0.2")); // the cma_hdr's destination
        Cm.Endpoint ep = track(new Cm.Endpoint(id, QpType.RC));
        event.ack();
        id.accept(ConnParam.withPrivateData("rping?".getBytes(StandardCharsets.US_ASCII)));

        QpAttr attr = ep.qp.query();
        assertThat(ep.qp.state()).isEqualTo(QpState.RTS);
        assertThat(attr.destQpNum()).isEqualTo(req.localQpn());
        assertThat(attr.sqPsn()).isEqualTo(req.startingPsn()); // the kernel's rq_psn is our sq_psn
        assertThat(attr.pathMtu().value()).isEqualTo(Math.min(req.pathMtu(), id.verbs().queryPort(1).activeMtu().value()));
        Cm.await(() -> sent.stream().anyMatch(b -> b[17] == 0x13), "our REP");
        byte[] repMad = sent.stream().filter(b -> b[17] == 0x13).findFirst().orElseThrow();
        CmMad ours = CmCodec.decode(repMad, 0, repMad.length);
        Rep rep = (Rep) ours.message();
        assertThat(ours.header().transactionId()).isEqualTo(kernel.header().transactionId());
        assertThat(rep.remoteCommId()).isEqualTo(req.localCommId());
        assertThat(rep.localCommId()).isNotZero();
        assertThat(rep.localQpn()).isEqualTo(ep.qp.qpNum());
        assertThat(rep.startingPsn()).isEqualTo(attr.rqPsn());
        assertThat(rep.targetAckDelay()).isEqualTo(15);
        assertThat(rep.privateData()).startsWith("rping?".getBytes(StandardCharsets.US_ASCII));

        network.inject(rpingClient, 1, CmRegistry.address(serverDevice),
                CmCodec.encode(kernel.header().transactionId(), new Rtu(req.localCommId(), rep.localCommId(), new byte[0])));
        ack(server, CmEventType.ESTABLISHED);

        long dreqTid = 0x1234_5678_0000_0042L;
        network.inject(rpingClient, 1, CmRegistry.address(serverDevice),
                CmCodec.encode(dreqTid, new Dreq(req.localCommId(), rep.localCommId(), ep.qp.qpNum(), new byte[0])));
        ack(server, CmEventType.DISCONNECTED);
        id.disconnect();
        Cm.await(() -> sent.stream().anyMatch(b -> b[17] == 0x16), "our DREP");
        byte[] drepMad = sent.stream().filter(b -> b[17] == 0x16).findFirst().orElseThrow();
        CmMad drep = CmCodec.decode(drepMad, 0, drepMad.length);
        assertThat(drep.header().transactionId()).isEqualTo(dreqTid);
        assertThat(((Drep) drep.message()).remoteCommId()).isEqualTo(req.localCommId());
        ack(server, CmEventType.TIMEWAIT_EXIT);
    }

    /** frame number → 256-byte MAD, from the wire codec's test resource. */
    private static Map<Integer, byte[]> frames() throws IOException {
        Map<Integer, byte[]> frames = new LinkedHashMap<>();
        try (InputStream in = KernelPeerTest.class.getResourceAsStream("/org/jrdma/cm/wire/rping-mads.hex")) {
            int frame = -1;
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                if (line.startsWith("# frame ")) {
                    frame = Integer.parseInt(line.substring(8, line.indexOf(':')));
                } else if (!line.startsWith("#") && !line.isBlank() && frame >= 0) {
                    frames.put(frame, HexFormat.of().parseHex(line.strip()));
                    frame = -1;
                }
            }
        }
        return frames;
    }
}
