package org.jrdma.soft.conformance;

import org.jrdma.testkit.RdmaOpsSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftRdmaOpsTest extends RdmaOpsSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
