/**
 * JMX views of open devices and QPs: a provider registers a {@link org.jrdma.verbs.jmx.DeviceMXBean}
 * ({@code org.jrdma:type=Device,name=<device>}) when a device opens and a
 * {@link org.jrdma.verbs.jmx.QueuePairMXBean} ({@code org.jrdma:type=QueuePair,device=<device>,qpn=0x<qpn>})
 * for each QP, on the platform MBeanServer, and unregisters them on close, destroy or device
 * failure ({@link org.jrdma.verbs.jmx.Jmx}). JConsole, VisualVM or any JMX client then shows the
 * counters live. {@code -Djrdma.jmx=false} registers nothing.
 */
package org.jrdma.verbs.jmx;
