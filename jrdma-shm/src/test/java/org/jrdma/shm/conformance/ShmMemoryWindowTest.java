package org.jrdma.shm.conformance;

import org.jrdma.testkit.MemoryWindowSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link MemoryWindowSuite} on the shm provider. */
class ShmMemoryWindowTest extends MemoryWindowSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
