package org.jrdma.shm.conformance;

import org.jrdma.testkit.RdmaOrderingSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link RdmaOrderingSuite} on the shm provider. */
class ShmRdmaOrderingTest extends RdmaOrderingSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
