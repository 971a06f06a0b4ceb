package org.jrdma.soft.conformance;

import org.jrdma.testkit.SendRecvSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftSendRecvTest extends SendRecvSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
