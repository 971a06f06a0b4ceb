package org.jrdma.verbs.jmx;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers the providers' MXBeans on the platform MBeanServer under {@code org.jrdma:…}. A
 * name taken already (two devices of one name in a JVM, as tests make) gets {@code ,id=N}
 * rather than an error; a JMX failure is logged, never thrown, since a device must open
 * whether or not it can be watched. System property {@value #PROPERTY}{@code =false} turns
 * registration off.
 */
public final class Jmx {
    /** The system property that turns registration off when {@code false}. */
    public static final String PROPERTY = "jrdma.jmx";
    /** The ObjectName domain of every jrdma MXBean. */
    public static final String DOMAIN = "org.jrdma";
    private static final System.Logger LOG = System.getLogger(Jmx.class.getName());
    private static final AtomicLong NEXT_ID = new AtomicLong(1);

    private Jmx() {
    }

    /** A registered MXBean; {@link #close} unregisters it (idempotent). */
    public static final class Registration implements AutoCloseable {
        static final Registration NONE = new Registration(null);
        private volatile ObjectName name;

        Registration(ObjectName name) {
            this.name = name;
        }

        /**
         * Nothing registered (a placeholder until registration).
         *
         * @return the empty registration, whose {@link #close} does nothing
         */
        public static Registration none() {
            return NONE;
        }

        /**
         * The name it was registered under.
         *
         * @return the ObjectName, or null when nothing was registered (JMX off, or it failed)
         */
        public ObjectName objectName() {
            return name;
        }

        @Override
        public void close() {
            ObjectName n = name;
            name = null;
            if (n != null) {
                try {
                    ManagementFactory.getPlatformMBeanServer().unregisterMBean(n);
                } catch (InstanceNotFoundException gone) {
                    // unregistered by someone else already
                } catch (JMException e) {
                    LOG.log(System.Logger.Level.WARNING, "jrdma: could not unregister " + n, e);
                }
            }
        }
    }

    /**
     * Whether {@value #PROPERTY} lets the providers register MXBeans (default: yes).
     *
     * @return false when the property is {@code false}
     */
    public static boolean enabled() {
        return !"false".equalsIgnoreCase(System.getProperty(PROPERTY, "true").strip());
    }

    /**
     * Registers a device's MXBean as {@code org.jrdma:type=Device,name=<device>} (or with
     * {@code ,id=N} when taken).
     *
     * @param device the device name
     * @param bean   the device's view
     * @return the registration, to close when the device closes; {@link Registration#none()} when
     *         nothing was registered
     */
    public static Registration registerDevice(String device, DeviceMXBean bean) {
        return register("type=Device,name=" + value(device), bean);
    }

    /**
     * Registers a QP's MXBean as {@code org.jrdma:type=QueuePair,device=<device>,qpn=0x<qpn>}
     * (or with {@code ,id=N} when taken).
     *
     * @param device the device name
     * @param qpn    the QP number
     * @param bean   the QP's view
     * @return the registration, to close when the QP is destroyed; {@link Registration#none()} when
     *         nothing was registered
     */
    public static Registration registerQueuePair(String device, int qpn, QueuePairMXBean bean) {
        return register("type=QueuePair,device=" + value(device) + ",qpn=0x" + Integer.toHexString(qpn), bean);
    }

    private static Registration register(String keys, Object bean) {
        if (!enabled()) {
            return Registration.NONE;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(DOMAIN + ":" + keys);
            while (true) {
                try {
                    server.registerMBean(bean, name);
                    return new Registration(name);
                } catch (InstanceAlreadyExistsException taken) {
                    name = new ObjectName(DOMAIN + ":" + keys + ",id=" + NEXT_ID.getAndIncrement());
                }
            }
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "jrdma: could not register " + DOMAIN + ":" + keys + " with JMX", e);
            return Registration.NONE;
        }
    }

    /** A key value as ObjectName takes it: quoted when it holds a character that would end or confuse it. */
    private static String value(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (",=:\"*?\n".indexOf(s.charAt(i)) >= 0) {
                return ObjectName.quote(s);
            }
        }
        return s;
    }
}
