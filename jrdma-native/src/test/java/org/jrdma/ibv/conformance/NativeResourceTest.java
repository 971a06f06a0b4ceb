package org.jrdma.ibv.conformance;

import org.jrdma.testkit.ResourceSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeResourceTest extends ResourceSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
