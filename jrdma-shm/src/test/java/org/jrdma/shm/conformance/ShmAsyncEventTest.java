package org.jrdma.shm.conformance;

import org.jrdma.testkit.AsyncEventSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link AsyncEventSuite} on the shm provider. */
class ShmAsyncEventTest extends AsyncEventSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
