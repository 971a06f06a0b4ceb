package org.jrdma.shm.conformance;

import org.jrdma.testkit.AtomicsSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link AtomicsSuite} on the shm provider. */
class ShmAtomicsTest extends AtomicsSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
