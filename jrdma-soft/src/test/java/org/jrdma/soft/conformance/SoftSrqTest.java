package org.jrdma.soft.conformance;

import org.jrdma.testkit.SrqSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftSrqTest extends SrqSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
