package org.jrdma.soft.conformance;

import org.jrdma.testkit.UcSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftUcTest extends UcSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
