package org.jrdma.shm.conformance;

import org.jrdma.testkit.SrqSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link SrqSuite} on the shm provider. */
class ShmSrqTest extends SrqSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
