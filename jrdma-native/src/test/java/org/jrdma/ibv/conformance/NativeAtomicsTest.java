package org.jrdma.ibv.conformance;

import org.jrdma.testkit.AtomicsSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeAtomicsTest extends AtomicsSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
