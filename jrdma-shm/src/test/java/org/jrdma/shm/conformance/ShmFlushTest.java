package org.jrdma.shm.conformance;

import org.jrdma.testkit.FlushSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link FlushSuite} on the shm provider. */
class ShmFlushTest extends FlushSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
