package org.jrdma.cm;

import java.net.InetAddress;
import java.util.List;
import org.jrdma.soft.SoftDevice;
import org.jrdma.verbs.Device;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The CM's flows over IPv6: GSI MADs as RoCEv2 UD packets to QP1 over UDP/IPv6, the CM REQ's
 * path GIDs and the cma_hdr's addresses IPv6 (ipVersion 6). ::1 is the only IPv6 address an
 * unprivileged host surely has, so one soft device on it is both ends, as one rxe device is
 * for an rping to its own address.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Ipv6GsiFlowsTest extends CmFlowsSuite {
    private CmOptions options;

    @BeforeAll
    void devices() {
        SoftDevice v6 = TestDevices.ipv6Loopback();
        serverDevice = v6;
        clientDevice = v6;
        options = Cm.options(List.<Device>of(v6), GsiMadPort::open);
    }

    /** A ULA nobody has: the REQs go nowhere (or fail to route) and the CM gives up after its retries. */
    @Override
    protected InetAddress silentAddress() {
        try {
            return InetAddress.getByName("fd00:6a72:646d::dead");
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected CmOptions options() {
        return options;
    }
}
