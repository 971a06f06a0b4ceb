package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.cm.Cm.ack;
import static org.jrdma.cm.Cm.expect;
import static org.jrdma.cm.InMemoryMadNetwork.Action.DROP;
import static org.jrdma.cm.InMemoryMadNetwork.Action.DUPLICATE;
import static org.jrdma.cm.InMemoryMadNetwork.Action.HOLD;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jrdma.cm.wire.CmAttribute;
import org.jrdma.cm.wire.CmCodec;
import org.jrdma.cm.wire.CmMad;
import org.jrdma.cm.wire.CmaHeader;
import org.jrdma.cm.wire.Dreq;
import org.jrdma.cm.wire.Mad;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.cm.wire.Req;
import org.jrdma.cm.wire.ServiceId;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Lost, duplicated and reordered CM messages (seeded rules of the in-memory network), the
 * REQ's contents, and a forged DREQ.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InMemoryLossTest extends CmFixture {
    private InMemoryMadNetwork network;
    private CmOptions options;
    private Device thirdDevice;

    @BeforeAll
    void devices() {
        network = new InMemoryMadNetwork(7);
        serverDevice = TestDevices.fresh("lss");
        clientDevice = TestDevices.fresh("lsc");
        thirdDevice = TestDevices.fresh("lsx");
        // timewait longer than the response timeout, so that a DREQ resent after a lost DREP still finds the peer
        options = Cm.options(List.<Device>of(serverDevice, clientDevice, thirdDevice), network).timewait(Duration.ofMillis(600))
                .maxRetries(6);
    }

    @AfterEach
    void noRulesLeft() {
        network.clearRules();
        network.tap = null;
        network.rewrite = null;
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
    void aLostReqIsSentAgainOnTheCmTimeout() {
        network.rule(CmAttribute.REQ, DROP, 1);
        Pair p = connected();
        assertThat(p.client().counters().get(CmCounters.RETRANSMITTED)).isGreaterThanOrEqualTo(1);
        quiet();
    }

    @Test
    void aLostRepIsSentAgainAndARepeatedReqIsAnsweredWithIt() {
        network.rule(CmAttribute.REP, DROP, 2);
        Pair p = connected();
        assertThat(p.server().ep().qp.state()).isEqualTo(QpState.RTS);
        quiet();
    }

    @Test
    void aLostRtuMakesTheServerRepeatItsRepAndTheClientItsRtu() {
        network.rule(CmAttribute.RTU, DROP, 1);
        long dups = CmId.deviceCounters(clientDevice.name()).getOrDefault(CmCounters.DUPLICATES, 0L);
        Pair p = connected();
        assertThat(p.client().counters().get(CmCounters.DUPLICATES)).isGreaterThan(dups);
        quiet();
    }

    @Test
    void aHeldBackRepStillConnects() {
        network.rule(CmAttribute.REP, HOLD, 1);
        connected();
        quiet();
    }

    @Test
    void everyMessageTwiceGivesEachEventOnce() {
        for (CmAttribute a : List.of(CmAttribute.REQ, CmAttribute.REP, CmAttribute.RTU, CmAttribute.DREQ, CmAttribute.DREP)) {
            network.rule(a, DUPLICATE, 1);
        }
        Pair p = connected();
        disconnectBoth(p);
        quiet();
        assertThat(p.server().id().counters().get(CmCounters.DUPLICATES)).isGreaterThanOrEqualTo(2);
    }

    @Test
    void aLostDreqAndALostDrepStillDisconnectBothSides() {
        network.rule(CmAttribute.DREQ, DROP, 1).rule(CmAttribute.DREP, DROP, 1);
        Pair p = connected();
        disconnectBoth(p);
        quiet();
    }

    @Test
    void thirtyPercentLossStillConnectsAndDisconnects() {
        network.loss(0.3);
        for (int i = 0; i < 4; i++) {
            Pair p = connected();
            disconnectBoth(p);
        }
        quiet();
    }

    /**
     * REL-14: a REQ whose primary local ACK timeout is 0 (no retransmit timer) must not turn the
     * server's timer off; like Linux's ib_cm, the server uses 1 (8.2 µs) instead.
     */
    @Test
    void rel14AReqWithAckTimeoutZeroCannotTurnTheServersRetransmitTimerOff() {
        int at = Mad.HEADER_SIZE + 95; // REQ: Primary Local ACK Timeout, the top 5 bits of data byte 95
        network.rewrite = mad -> {
            if (((mad[16] & 0xFF) << 8 | mad[17] & 0xFF) == CmAttribute.REQ.id()) {
                Req before = (Req) decode(mad).message();
                assertThat((mad[at] & 0xFF) >>> 3).isEqualTo(before.primaryPath().localAckTimeout());
                mad[at] &= 0x07;
                assertThat(((Req) decode(mad).message()).primaryPath().localAckTimeout()).isZero();
            }
            return mad;
        };
        Pair p = connected();
        assertThat(p.server().ep().qp.query().timeout()).isEqualTo(1);
        assertThat(p.server().ep().qp.state()).isEqualTo(QpState.RTS);
        quiet();
    }

    @Test
    void theReqCarriesWhatTheKernelPutsInIt() throws Exception {
        List<byte[]> seen = new CopyOnWriteArrayList<>();
        network.tap = seen::add;
        Pair p = connected();
        CmMad mad = seen.stream().map(b -> decode(b)).filter(m -> m.message() instanceof Req).findFirst().orElseThrow();
        Req req = (Req) mad.message();
        CmConn c = p.client().conn();
        assertThat(req.localCommId()).isEqualTo(c.localCommId).isNotZero();
        assertThat(mad.header().transactionId() & 0xFFFFFFFFL).isEqualTo(c.localCommId & 0xFFFFFFFFL);
        assertThat(req.serviceId()).isEqualTo(ServiceId.of(PortSpace.TCP, p.listener().port())).isEqualTo(0x01060000L | p.listener().port());
        assertThat(req.localQpn()).isEqualTo(p.clientEp().qp.qpNum());
        // Linux: the Starting PSN is the REQ sender's own rq_psn; the server sends from it
        assertThat(req.startingPsn()).isEqualTo(c.seq).isEqualTo(p.clientEp().qp.query().rqPsn());
        assertThat(p.server().ep().qp.query().sqPsn()).isEqualTo(req.startingPsn());
        assertThat(p.clientEp().qp.query().sqPsn()).isEqualTo(p.server().id().conn().seq);
        assertThat(req.remoteCmResponseTimeout()).isEqualTo(20);
        assertThat(req.localCmResponseTimeout()).isEqualTo(20);
        assertThat(req.maxCmRetries()).isEqualTo(options.maxRetries());
        assertThat(req.retryCount()).isEqualTo(7);
        assertThat(req.rnrRetryCount()).isEqualTo(7);
        assertThat(req.transportServiceType()).isZero();
        assertThat(req.partitionKey()).isEqualTo(0xFFFF);
        assertThat(req.pathMtu()).isEqualTo(p.client().verbs().queryPort(1).activeMtu().value());
        assertThat(req.primaryPath().localLid()).isEqualTo(0xFFFF);
        assertThat(req.primaryPath().remoteLid()).isEqualTo(0xFFFF);
        assertThat(req.primaryPath().localGid()).isEqualTo(Gid.of(CmRegistry.address(clientDevice)).toBytes());
        assertThat(req.primaryPath().remoteGid()).isEqualTo(Gid.of(CmRegistry.address(serverDevice)).toBytes());
        assertThat(req.primaryPath().localAckTimeout()).isEqualTo(17);
        CmaHeader cma = CmaHeader.decode(req.privateData());
        assertThat(cma.sourcePort()).isEqualTo(p.client().port());
        assertThat(cma.source()).isEqualTo(CmRegistry.address(clientDevice));
        assertThat(cma.destination()).isEqualTo(CmRegistry.address(serverDevice));
        assertThat(p.server().request().param().responderResources()).isEqualTo(req.initiatorDepth());
        assertThat(p.server().request().param().initiatorDepth()).isEqualTo(req.responderResources());
    }

    @Test
    void aForgedDreqWithTheRightCommIdsFromAnotherAddressDoesNothing() {
        Pair p = connected();
        CmConn s = p.server().id().conn();
        long before = p.server().id().counters().getOrDefault("dropped_wrong_source", 0L);
        byte[] forged = CmCodec.encode(1234, new Dreq(s.remoteCommId, s.localCommId, p.server().ep().qp.qpNum(), new byte[0]));
        network.inject(CmRegistry.address(thirdDevice), 1, CmRegistry.address(serverDevice), forged);
        Cm.await(() -> p.server().id().counters().getOrDefault("dropped_wrong_source", 0L) > before, "the forged DREQ to be dropped");
        quiet();
        assertThat(p.server().ep().qp.state()).isEqualTo(QpState.RTS);
        // the same DREQ from the peer's address with a wrong comm ID is dropped too
        byte[] wrongId = CmCodec.encode(1234, new Dreq(s.remoteCommId + 1, s.localCommId, p.server().ep().qp.qpNum(), new byte[0]));
        network.inject(CmRegistry.address(clientDevice), 1, CmRegistry.address(serverDevice), wrongId);
        Cm.await(() -> p.server().id().counters().getOrDefault("dropped_wrong_comm_id", 0L) > 0, "the wrong-ID DREQ to be dropped");
        quiet();
        disconnectBoth(p);
    }

    @Test
    void aMalformedMadIsCountedAndDropped() {
        Pair p = connected();
        byte[] junk = new byte[256];
        junk[1] = 0x07;
        network.inject(CmRegistry.address(clientDevice), 1, CmRegistry.address(serverDevice), junk);
        Cm.await(() -> p.server().id().counters().getOrDefault("dropped_malformed", 0L) > 0, "the malformed MAD to be dropped");
        quiet();
        assertThat(p.server().ep().qp.state()).isEqualTo(QpState.RTS);
    }

    private static CmMad decode(byte[] b) {
        try {
            return CmCodec.decode(b, 0, b.length);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
