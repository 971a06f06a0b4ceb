package org.jrdma.shm.conformance;

import org.jrdma.testkit.RnrSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link RnrSuite} on the shm provider. */
class ShmRnrTest extends RnrSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
