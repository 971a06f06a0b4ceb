package org.jrdma.ibv.conformance;

import org.jrdma.testkit.AsyncEventSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeAsyncEventTest extends AsyncEventSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
