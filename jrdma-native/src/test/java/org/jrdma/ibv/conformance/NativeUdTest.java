package org.jrdma.ibv.conformance;

import org.jrdma.testkit.UdSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeUdTest extends UdSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
