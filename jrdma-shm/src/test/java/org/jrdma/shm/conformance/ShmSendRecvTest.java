package org.jrdma.shm.conformance;

import org.jrdma.testkit.SendRecvSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link SendRecvSuite} on the shm provider. */
class ShmSendRecvTest extends SendRecvSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
