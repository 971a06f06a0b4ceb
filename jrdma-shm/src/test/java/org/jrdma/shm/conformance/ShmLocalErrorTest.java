package org.jrdma.shm.conformance;

import org.jrdma.testkit.LocalErrorSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link LocalErrorSuite} on the shm provider. */
class ShmLocalErrorTest extends LocalErrorSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
