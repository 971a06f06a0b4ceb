package org.jrdma.shm.conformance;

import org.jrdma.testkit.QpStateMachineSuite;
import org.jrdma.testkit.ProviderFixture;

/** The testkit's {@link QpStateMachineSuite} on the shm provider. */
class ShmQpStateMachineTest extends QpStateMachineSuite {
    @Override
    protected ProviderFixture fixture() {
        return new ShmFixture();
    }
}
