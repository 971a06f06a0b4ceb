package org.jrdma.soft.conformance;

import org.jrdma.testkit.FlushSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftFlushTest extends FlushSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
