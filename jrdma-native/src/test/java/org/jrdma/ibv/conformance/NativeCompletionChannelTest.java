package org.jrdma.ibv.conformance;

import org.jrdma.testkit.CompletionChannelSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeCompletionChannelTest extends CompletionChannelSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
