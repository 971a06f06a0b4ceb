package org.jrdma.ibv.conformance;

import org.jrdma.testkit.RnrSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeRnrTest extends RnrSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
