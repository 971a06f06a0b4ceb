package org.jrdma.soft.conformance;

import org.jrdma.testkit.QpStateMachineSuite;
import org.jrdma.testkit.ProviderFixture;

class SoftQpStateMachineTest extends QpStateMachineSuite {
    @Override
    protected ProviderFixture fixture() {
        return new SoftFixture();
    }
}
