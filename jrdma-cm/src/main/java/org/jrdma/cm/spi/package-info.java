/**
 * The seam between jrdma-cm's API ({@link org.jrdma.cm.EventChannel}, {@link org.jrdma.cm.CmId})
 * and a connection manager other than the built-in one: a {@link CmBackend} found by
 * ServiceLoader serves the devices of one verbs provider (jrdma-native's serves native devices
 * through librdmacm). Without one, or for any other device, the built-in CM (IB CM MADs on the
 * soft devices' QP1) runs, unchanged.
 */
package org.jrdma.cm.spi;
