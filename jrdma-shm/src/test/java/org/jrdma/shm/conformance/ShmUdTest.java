package org.jrdma.shm.conformance;

import org.jrdma.testkit.UdSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link UdSuite} on the shm provider. */
class ShmUdTest extends UdSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
