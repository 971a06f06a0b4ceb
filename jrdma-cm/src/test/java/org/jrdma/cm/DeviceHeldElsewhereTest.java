package org.jrdma.cm;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.jrdma.cm.wire.PortSpace;
import org.jrdma.soft.SoftDevice;
import org.junit.jupiter.api.Test;

/**
 * A process may list a soft device that another process serves (JRDMA_SOFT_DEVICES=a=…,b=… on
 * both sides, the server holding a). The CM looks at every listed device's address to choose
 * one; it opened each to learn it, and a device held elsewhere failed the whole choice with
 * "open_device a: … taken". A socket of this test on the device's address stands for the other
 * process: it holds UDP 4791 there as a soft device would.
 */
class DeviceHeldElsewhereTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** The source's device (perf -R -d b, rping -I), no source (rping -c), and a bind (a server given -d b). */
    @Test
    void aDeviceAnotherProcessHoldsIsLookedAtNotOpened() throws Exception {
        SoftDevice held = TestDevices.fresh("cm_held");
        SoftDevice mine = TestDevices.fresh("cm_mine");
        InetAddress heldAddress = held.spec().address();
        InetAddress myAddress = mine.spec().address();
        try (DatagramSocket otherProcess = new DatagramSocket(new InetSocketAddress(heldAddress, 4791));
                EventChannel ch = EventChannel.create(CmOptions.defaults().devices(() -> List.of(held, mine)));
                CmId fromSource = CmId.create(ch, PortSpace.TCP, null);
                CmId noSource = CmId.create(ch, PortSpace.TCP, null);
                CmId bound = CmId.create(ch, PortSpace.TCP, null)) {
            assertThat(otherProcess.isBound()).isTrue();
            fromSource.resolveAddr(new InetSocketAddress(myAddress, 0), new InetSocketAddress(heldAddress, 7174), WAIT);
            ch.getEvent(CmEventType.ADDR_RESOLVED, WAIT).ack();
            assertThat(fromSource.verbs().device().name()).isEqualTo(mine.name());

            noSource.resolveAddr(null, new InetSocketAddress(heldAddress, 7174), WAIT);
            ch.getEvent(CmEventType.ADDR_RESOLVED, WAIT).ack();
            assertThat(noSource.verbs().device().name()).isEqualTo(mine.name());

            bound.bindAddr(new InetSocketAddress(myAddress, 0));
            assertThat(bound.verbs().device().name()).isEqualTo(mine.name());
        }
    }
}
