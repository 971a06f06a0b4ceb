/**
 * The device's memory, as the engine checks and touches it: the identity of a protection
 * domain ({@code PdId}), registered regions ({@code Region}) and memory windows
 * ({@code Window}) — the memory side of SoftMr and SoftMw — the table that finds them by key
 * ({@code MemoryTable}, with {@code Quarantine} keeping retired keys from coming back and
 * {@code IntMap} for allocation-free lookups), the keys themselves ({@code SecureIds}), a work
 * request's resolved scatter/gather list ({@code Gather}) and the responder's check of a remote
 * address ({@code RemoteAccess}). Regions, windows and QPs meet only with the same
 * {@code PdId}.
 */
package org.jrdma.soft.memory;
