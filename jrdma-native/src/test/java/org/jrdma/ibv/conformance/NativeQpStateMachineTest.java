package org.jrdma.ibv.conformance;

import org.jrdma.testkit.QpStateMachineSuite;
import org.jrdma.testkit.ProviderFixture;

class NativeQpStateMachineTest extends QpStateMachineSuite {
    @Override
    protected ProviderFixture fixture() {
        return NativeFixture.get();
    }
}
