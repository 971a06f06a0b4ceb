package org.jrdma.shm.conformance;

import org.jrdma.testkit.ResourceSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link ResourceSuite} on the shm provider. */
class ShmResourceTest extends ResourceSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
