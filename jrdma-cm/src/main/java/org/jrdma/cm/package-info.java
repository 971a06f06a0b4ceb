/**
 * The connection manager, modelled on librdmacm: an event channel, CM ids for RC (port space
 * TCP) and UD (port space UDP), and the IB CM protocol (REQ, REP, RTU, REJ, MRA, DREQ, DREP) as
 * MADs on the device's GSI QP (QP1, Q_Key 0x80010000), so that a connection is set up with no
 * TCP at all. Wire facts: ROCEV2-FACTS §7.
 */
package org.jrdma.cm;
