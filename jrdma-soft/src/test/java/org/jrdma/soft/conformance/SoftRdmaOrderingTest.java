package org.jrdma.soft.conformance;

import org.jrdma.testkit.RdmaOrderingSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftRdmaOrderingTest extends RdmaOrderingSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
