package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jrdma.cm.wire.CmCodec;
import org.jrdma.cm.wire.Dreq;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.QpState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * SEC-17: a DREQ with the right comm IDs and QPN, sent from the GSI QP of a third device (a
 * real RoCEv2 packet to QP1 with Q_Key 0x80010000), is dropped — the connection stays up.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GsiForgedDreqTest extends CmFixture {
    private CmOptions options;
    private Device forgerDevice;

    @BeforeAll
    void devices() {
        serverDevice = TestDevices.fresh("fgs");
        clientDevice = TestDevices.fresh("fgc");
        forgerDevice = TestDevices.fresh("fgx");
        options = Cm.options(List.<Device>of(serverDevice, clientDevice), GsiMadPort::open);
    }

    @Override
    protected CmOptions options() {
        return options;
    }

    @Test
    void aDreqWithTheRightCommIdsFromAThirdDevicesQp1DoesNothing() {
        Pair p = connected();
        CmConn s = p.server().id().conn();
        long before = p.server().id().counters().getOrDefault("dropped_wrong_source", 0L);
        byte[] forged = CmCodec.encode(s.tid, new Dreq(s.remoteCommId, s.localCommId, p.server().ep().qp.qpNum(), new byte[0]));
        try (Context ctx = forgerDevice.open();
                MadPort forger = GsiMadPort.open(ctx, CmRegistry.address(forgerDevice), (src, qpn, mad, off, len) -> { })) {
            forger.send(CmRegistry.address(serverDevice), forged);
            Cm.await(() -> p.server().id().counters().getOrDefault("dropped_wrong_source", 0L) > before,
                    "the forged DREQ to arrive and be dropped");
        }
        quiet();
        assertThat(p.server().ep().qp.state()).isEqualTo(QpState.RTS);
        assertThat(p.clientEp().qp.state()).isEqualTo(QpState.RTS);
        disconnectBoth(p); // the real peer still can
        quiet();
    }
}
