package org.jrdma.ibv.conformance;

import org.jrdma.testkit.FlushSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeFlushTest extends FlushSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
