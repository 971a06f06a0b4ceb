package org.jrdma.verbs;

/**
 * {@code struct ibv_mw_bind_info} (with the WR fields of a bind): bind {@code length} bytes of
 * {@code mr} starting at {@code addr} with {@code accessFlags} (REMOTE_READ / REMOTE_WRITE /
 * REMOTE_ATOMIC); a zero length unbinds.
 */
public record MwBind(MemoryRegion mr, long addr, long length, int accessFlags) {
}
