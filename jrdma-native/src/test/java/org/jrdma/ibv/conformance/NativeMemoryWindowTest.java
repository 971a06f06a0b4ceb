package org.jrdma.ibv.conformance;

import org.jrdma.testkit.MemoryWindowSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeMemoryWindowTest extends MemoryWindowSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
