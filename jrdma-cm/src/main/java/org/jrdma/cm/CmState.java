package org.jrdma.cm;

/** The IB CM connection states this CM uses (K-cm {@code enum ib_cm_state}, §7.10). */
enum CmState {
    IDLE, LISTEN, REQ_SENT, REQ_RCVD, REP_SENT, REP_RCVD, ESTABLISHED, DREQ_SENT, DREQ_RCVD, TIMEWAIT,
    SIDR_REQ_SENT, SIDR_REQ_RCVD
}
