package org.jrdma.soft.conformance;

import org.jrdma.testkit.UdSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftUdTest extends UdSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
