package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * RELIABILITY-SECURITY SEC-31 over real GSI MADs: one peer address floods a listener with
 * connection requests that nobody takes; it gets at most half the backlog (the rest of its REQs
 * are dropped unanswered and counted), and a second peer's request still finds a slot and
 * connects. A pending request holds a CM id and nothing else: no QP exists on the server side
 * until the application makes one for the CONNECT_REQUEST it chose to take.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CmPerPeerLimitTest extends CmFixture {
    private CmOptions options;
    private Device honestDevice;

    @BeforeAll
    void devices() {
        serverDevice = TestDevices.fresh("sec31s");
        clientDevice = TestDevices.fresh("sec31flood");
        honestDevice = TestDevices.fresh("sec31ok");
        options = Cm.options(List.of(serverDevice, clientDevice, honestDevice), GsiMadPort::open);
    }

    @Override
    protected CmOptions options() {
        return options;
    }

    @Test
    void sec31OnePeerFillsAtMostHalfTheBacklogAndAnotherPeerStillConnects() {
        CmId listener = track(Cm.listener(server, serverDevice, PortSpace.TCP, 4));
        EventChannel flooder = channel(options.maxRetries(15));
        List<CmId> flood = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            CmId c = track(Cm.resolved(flooder, clientDevice, listener, PortSpace.TCP));
            track(new Cm.Endpoint(c, QpType.RC));
            flood.add(c);
        }
        flood.forEach(c -> c.connect(null));
        // 2 of the flooder's 6 wait in the backlog (half of 4); its other 4 are dropped, and their retries too
        Cm.await(() -> listener.counters().getOrDefault("dropped_peer_pending_limit", 0L) >= 4, "the flooder's REQs over its share dropped");
        assertThat(listener.counters().getOrDefault("dropped_backlog_full", 0L)).isZero();

        EventChannel honest = channel(options);
        CmId h = track(Cm.resolved(honest, honestDevice, listener, PortSpace.TCP));
        Cm.Endpoint hep = track(new Cm.Endpoint(h, QpType.RC));
        h.connect(null);
        InetAddress honestIp = CmRegistry.address(honestDevice);
        CmEvent mine = null;
        List<CmEvent> taken = new ArrayList<>();
        while (mine == null) {
            CmEvent e = Cm.expect(server, CmEventType.CONNECT_REQUEST);
            CmId s = track(e.id());
            assertThat(s.qp()).as("a pending request holds no QP").isNull();
            if (s.peerAddress().getAddress().equals(honestIp)) {
                mine = e;
            } else {
                taken.add(e);
            }
            assertThat(taken).as("the honest request comes after at most the flooder's share").hasSizeLessThanOrEqualTo(2 + 2);
        }
        Cm.Endpoint sep = track(new Cm.Endpoint(mine.id(), QpType.RC));
        mine.id().accept(null);
        mine.ack();
        Cm.ack(honest, CmEventType.ESTABLISHED);
        assertThat(hep.qp.state()).isEqualTo(QpState.RTS);
        assertThat(sep.qp.state()).isEqualTo(QpState.RTS);
        for (CmEvent e : taken) {
            e.id().reject(null);
            e.ack();
        }
        System.out.printf("SEC-31: backlog 4, per-peer share %d; the flooder's REQs dropped over its share: %d; the honest peer connected%n",
                2, listener.counters().getOrDefault("dropped_peer_pending_limit", 0L));
    }
}
