package org.jrdma.ibv.cm;

import org.jrdma.cm.spi.ChannelBackend;
import org.jrdma.cm.spi.CmBackend;
import org.jrdma.cm.spi.EventSink;
import org.jrdma.ibv.NativeProvider;
import org.jrdma.ibv.ffi.RdmaCm;

/** The connection manager of native devices: rdma_cm through librdmacm. */
public final class NativeCmBackend implements CmBackend {
    @Override
    public String provider() {
        return NativeProvider.NAME;
    }

    @Override
    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /** The native provider's reason first (native access, libibverbs, no device), then librdmacm's. */
    @Override
    public String unavailabilityCause() {
        String verbs = new NativeProvider().unavailabilityCause();
        if (verbs != null) {
            return verbs;
        }
        return libraryCause();
    }

    /** Why librdmacm cannot be used, or null (native access must be enabled already). */
    static String libraryCause() {
        return RdmaCm.loadFailure() == null ? null : RdmaCm.LIBRARY + " not found: install rdma-core's connection manager"
                + " library (Debian/Ubuntu: apt-get install librdmacm1; Fedora/RHEL: dnf install librdmacm)";
    }

    @Override
    public ChannelBackend openChannel(EventSink sink) {
        return NativeCmChannel.open(sink);
    }
}
