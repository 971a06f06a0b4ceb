package org.jrdma.cm;

import java.util.List;
import org.jrdma.verbs.Device;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The CM's flows with MADs on the soft devices' GSI QPs: real RoCEv2 UD packets to QP1 over UDP 4791. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GsiFlowsTest extends CmFlowsSuite {
    private CmOptions options;

    @BeforeAll
    void devices() {
        serverDevice = TestDevices.fresh("gsis");
        clientDevice = TestDevices.fresh("gsic");
        options = Cm.options(List.<Device>of(serverDevice, clientDevice), GsiMadPort::open);
    }

    @Override
    protected CmOptions options() {
        return options;
    }
}
