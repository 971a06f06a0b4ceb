package org.jrdma.ibv.conformance;

import org.jrdma.testkit.QpPostingSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeQpPostingTest extends QpPostingSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
