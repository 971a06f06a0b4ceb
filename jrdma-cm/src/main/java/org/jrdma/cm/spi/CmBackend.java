package org.jrdma.cm.spi;

/**
 * A connection manager for the devices of one verbs provider, found by ServiceLoader. An
 * {@link org.jrdma.cm.EventChannel} takes it when the devices its options offer are that
 * provider's (the first one decides, as {@code Verbs.device(null)} takes the first device);
 * everything else keeps the built-in CM.
 */
public interface CmBackend {
    /** The {@code Provider.name()} whose devices this CM serves ({@code native}). */
    String provider();

    /** False when it cannot run here (no library, no native access); {@link #unavailabilityCause()} says why. */
    boolean isAvailable();

    /** One line naming what is missing and how to fix it, or null when available. */
    String unavailabilityCause();

    /**
     * rdma_create_event_channel. {@code sink} makes the API's ids and events.
     *
     * @throws org.jrdma.cm.CmException naming the call and errno when the channel cannot be made
     */
    ChannelBackend openChannel(EventSink sink);
}
