package org.jrdma.soft.conformance;

import org.jrdma.testkit.AtomicsSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftAtomicsTest extends AtomicsSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
