package org.jrdma.soft.conformance;

import org.jrdma.testkit.RnrSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftRnrTest extends RnrSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
