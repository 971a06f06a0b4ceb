package org.jrdma.ibv.conformance;

import org.jrdma.testkit.SendRecvSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeSendRecvTest extends SendRecvSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
