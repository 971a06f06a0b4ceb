package org.jrdma.shm.conformance;

import org.jrdma.testkit.QpPostingSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link QpPostingSuite} on the shm provider. */
class ShmQpPostingTest extends QpPostingSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
