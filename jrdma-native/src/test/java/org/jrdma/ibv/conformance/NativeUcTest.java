package org.jrdma.ibv.conformance;

import org.jrdma.testkit.UcSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeUcTest extends UcSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
