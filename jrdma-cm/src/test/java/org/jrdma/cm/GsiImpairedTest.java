package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.jrdma.soft.SoftOptions;
import org.jrdma.soft.net.Impairment;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The CM through the soft provider's impairment layer: both devices lose 20 % and duplicate
 * 10 % of what they send (seeded), CM MADs on QP1 included. Every connection still comes up,
 * carries a SEND, and goes down with each event exactly once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GsiImpairedTest extends CmFixture {
    private CmOptions options;

    @BeforeAll
    void devices() {
        serverDevice = TestDevices.fresh("imps", SoftOptions.defaults().impairment(Impairment.parse("loss=20%,dup=10%,seed=11")));
        clientDevice = TestDevices.fresh("impc", SoftOptions.defaults().impairment(Impairment.parse("loss=20%,dup=10%,seed=12")));
        // 15 retries of 100 ms, and a timewait that outlasts a DREQ's retries after a lost DREP
        options = Cm.options(List.<Device>of(serverDevice, clientDevice), GsiMadPort::open).maxRetries(15)
                .timewait(Duration.ofMillis(800));
    }

    @Override
    protected CmOptions options() {
        return options;
    }

    @Test
    void connectionsComeUpCarryDataAndGoDownDespiteLossAndDuplication() {
        for (int i = 0; i < 4; i++) {
            Pair p = connected();
            Cm.Endpoint s = p.server().ep();
            s.qp.postRecv(new RecvWorkRequest().wrId(1).sg(new Sge(s.mr.addr(), 64, s.mr.lkey())));
            p.clientEp().qp.postSend(new SendWorkRequest().wrId(2).flags(SendFlags.SIGNALED)
                    .sg(new Sge(p.clientEp().mr.addr(), 32, p.clientEp().mr.lkey())));
            assertThat(p.clientEp().poll().status).isEqualTo(WcStatus.SUCCESS);
            assertThat(s.poll().status).isEqualTo(WcStatus.SUCCESS);
            disconnectBoth(p);
            quiet();
        }
        long retransmitted = CmId.deviceCounters(clientDevice.name()).getOrDefault(CmCounters.RETRANSMITTED, 0L)
                + CmId.deviceCounters(serverDevice.name()).getOrDefault(CmCounters.RETRANSMITTED, 0L);
        long duplicates = CmId.deviceCounters(clientDevice.name()).getOrDefault(CmCounters.DUPLICATES, 0L)
                + CmId.deviceCounters(serverDevice.name()).getOrDefault(CmCounters.DUPLICATES, 0L);
        assertThat(retransmitted + duplicates).as("the impairment touched some CM message").isPositive();
    }
}
