package org.jrdma.soft.conformance;

import org.jrdma.testkit.CompletionChannelSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftCompletionChannelTest extends CompletionChannelSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
