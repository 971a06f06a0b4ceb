package org.jrdma.soft.conformance;

import org.jrdma.testkit.RetrySuite;
import org.jrdma.testkit.ProviderFixture;

class SoftRetryTest extends RetrySuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
