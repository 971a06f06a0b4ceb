package org.jrdma.ibv.conformance;

import org.jrdma.testkit.LocalErrorSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeLocalErrorTest extends LocalErrorSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
