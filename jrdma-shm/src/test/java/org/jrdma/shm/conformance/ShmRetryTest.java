package org.jrdma.shm.conformance;

import org.jrdma.testkit.RetrySuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link RetrySuite} on the shm provider. */
class ShmRetryTest extends RetrySuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
