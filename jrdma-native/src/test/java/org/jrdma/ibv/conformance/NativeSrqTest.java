package org.jrdma.ibv.conformance;

import org.jrdma.testkit.SrqSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeSrqTest extends SrqSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
