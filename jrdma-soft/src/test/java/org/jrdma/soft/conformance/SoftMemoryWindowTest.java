package org.jrdma.soft.conformance;

import org.jrdma.testkit.MemoryWindowSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftMemoryWindowTest extends MemoryWindowSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
