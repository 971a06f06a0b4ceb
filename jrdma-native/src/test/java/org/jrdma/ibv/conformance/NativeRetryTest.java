package org.jrdma.ibv.conformance;

import org.jrdma.testkit.RetrySuite;
import org.jrdma.testkit.ProviderFixture;

class NativeRetryTest extends RetrySuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
