package org.jrdma.cm;

import java.util.List;
import org.jrdma.verbs.Device;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/** The CM's flows with MADs carried by an in-memory network (soft devices for the QPs and data). */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InMemoryFlowsTest extends CmFlowsSuite {
    private InMemoryMadNetwork network;
    private CmOptions options;

    @BeforeAll
    void devices() {
        network = new InMemoryMadNetwork(42);
        serverDevice = TestDevices.fresh("cms");
        clientDevice = TestDevices.fresh("cmc");
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
}
