package org.jrdma.tools.rc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.time.Duration;
import org.jrdma.tools.OwnDevices;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An endpoint on a context it does not own (the demo's on librdmacm's context, where
 * rdma_create_qp wants the PD): its close releases its PD, CQ and regions and leaves the context
 * open for its owner — closing that context would take the CM's context from under it.
 */
class RcEndpointSharedContextTest {
    @RegisterExtension
    final OwnDevices own = OwnDevices.perTest("shared");

    @Test
    void closingTheEndpointReleasesItsObjectsAndKeepsTheContext() {
        EndpointConfig config = new EndpointConfig(own.name(), "cm", 0, 64, 1, false, Mtu.MTU_1024, Duration.ofSeconds(5), true);
        try (Context ctx = Verbs.device(own.name()).open(); Arena arena = Arena.ofShared()) {
            RcEndpoint e = new RcEndpoint(ctx, "server", RcEndpoint.SERVER_SALT, config);
            ProtectionDomain pd = e.pd();
            assertThat(e.context()).isSameAs(ctx);
            e.close();
            assertThatThrownBy(() -> pd.registerMemory(arena.allocate(64), AccessFlags.LOCAL_WRITE, arena))
                    .as("the endpoint's PD is closed").isInstanceOf(VerbsException.class);
            try (ProtectionDomain again = ctx.allocPd();
                 MemoryRegion mr = again.registerMemory(arena.allocate(64), AccessFlags.LOCAL_WRITE, arena)) {
                assertThat(mr.length()).as("the context is still open").isEqualTo(64);
            }
        }
    }
}
