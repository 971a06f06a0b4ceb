package org.jrdma.ibv.conformance;

import org.jrdma.testkit.RdmaOpsSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeRdmaOpsTest extends RdmaOpsSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
