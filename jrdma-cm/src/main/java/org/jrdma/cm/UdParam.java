package org.jrdma.cm;

import org.jrdma.verbs.AddressHandle;
import org.jrdma.verbs.AhAttr;

/**
 * {@code struct rdma_ud_param}: how to reach the peer of a UD id — its address vector, QPN and
 * Q_Key. {@code ah} is an address handle made on the id's QP's protection domain (null when no
 * QP is attached); it belongs to the id, which destroys it with the QP (destroyQp or close).
 *
 * @param ahAttr the peer's address vector ({@code ah_attr})
 * @param ah an address handle for it, or null
 * @param qpNum the peer's QPN, 24 bits ({@code qp_num})
 * @param qkey the peer's Q_Key ({@code qkey})
 */
public record UdParam(AhAttr ahAttr, AddressHandle ah, int qpNum, int qkey) {
}
