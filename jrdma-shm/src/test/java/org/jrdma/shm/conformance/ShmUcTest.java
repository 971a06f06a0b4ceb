package org.jrdma.shm.conformance;

import org.jrdma.testkit.UcSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link UcSuite} on the shm provider. */
class ShmUcTest extends UcSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
