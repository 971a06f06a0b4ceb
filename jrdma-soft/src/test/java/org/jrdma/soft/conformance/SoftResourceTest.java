package org.jrdma.soft.conformance;

import org.jrdma.testkit.ResourceSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftResourceTest extends ResourceSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
