package org.jrdma.ibv.conformance;

import org.jrdma.testkit.RdmaOrderingSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeRdmaOrderingTest extends RdmaOrderingSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
