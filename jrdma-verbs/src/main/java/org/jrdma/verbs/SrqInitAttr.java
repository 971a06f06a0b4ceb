package org.jrdma.verbs;

/**
 * {@code struct ibv_srq_init_attr}.
 *
 * @param maxWr receive WRs the SRQ holds
 * @param maxSge SGEs per receive WR
 * @param srqLimit arm the limit event at once: it fires when fewer than this many WRs remain (0: not armed)
 */
public record SrqInitAttr(int maxWr, int maxSge, int srqLimit) {
}
