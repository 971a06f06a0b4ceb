package org.jrdma.shm.conformance;

import org.jrdma.testkit.CompletionChannelSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link CompletionChannelSuite} on the shm provider. */
class ShmCompletionChannelTest extends CompletionChannelSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
