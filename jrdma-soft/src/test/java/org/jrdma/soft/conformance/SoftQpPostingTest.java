package org.jrdma.soft.conformance;

import org.jrdma.testkit.QpPostingSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftQpPostingTest extends QpPostingSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
