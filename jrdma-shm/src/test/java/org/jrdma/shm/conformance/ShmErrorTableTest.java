package org.jrdma.shm.conformance;

import org.jrdma.testkit.ErrorTableSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link ErrorTableSuite} on the shm provider. */
class ShmErrorTableTest extends ErrorTableSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
