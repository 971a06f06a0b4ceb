package org.jrdma.shm.conformance;

import org.jrdma.testkit.RdmaOpsSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link RdmaOpsSuite} on the shm provider. */
class ShmRdmaOpsTest extends RdmaOpsSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
