package org.jrdma.soft.conformance;

import org.jrdma.testkit.AsyncEventSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftAsyncEventTest extends AsyncEventSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
