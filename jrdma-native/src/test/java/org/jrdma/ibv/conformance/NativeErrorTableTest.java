package org.jrdma.ibv.conformance;

import org.jrdma.testkit.ErrorTableSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeErrorTableTest extends ErrorTableSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
