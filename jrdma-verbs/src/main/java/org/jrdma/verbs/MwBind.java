package org.jrdma.verbs;

/**
 * {@code struct ibv_mw_bind_info} (with the WR fields of a bind): bind {@code length} bytes of
 * {@code mr} starting at {@code addr} with {@code accessFlags} (REMOTE_READ / REMOTE_WRITE /
 * REMOTE_ATOMIC); a zero length unbinds.
 *
 * @param mr          the region the window opens onto (registered with {@link AccessFlags#MW_BIND})
 * @param addr        the first byte of the window, an address inside {@code mr}
 * @param length      the window's size in bytes; 0 unbinds
 * @param accessFlags the {@link AccessFlags} remote peers get through the window's rkey
 */
public record MwBind(MemoryRegion mr, long addr, long length, int accessFlags) {
}
