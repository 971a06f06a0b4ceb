package org.jrdma.soft.conformance;

import org.jrdma.testkit.ErrorTableSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftErrorTableTest extends ErrorTableSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
