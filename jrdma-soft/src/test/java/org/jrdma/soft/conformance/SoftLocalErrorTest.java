package org.jrdma.soft.conformance;

import org.jrdma.testkit.LocalErrorSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftLocalErrorTest extends LocalErrorSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
