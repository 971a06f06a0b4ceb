package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.jmx.DeviceMXBean;
import org.jrdma.verbs.jmx.Jmx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The soft provider's MXBeans on the platform MBeanServer: a device's and each QP's appear
 * when they open, their attributes follow the traffic, and they are gone after close; a name
 * taken twice gets {@code ,id=N}; {@code -Djrdma.jmx=false} registers nothing.
 */
@Isolated // sets jrdma.jmx for one test, which would hide other tests' beans
class JmxBeansTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aDeviceAndItsQpsAreRegisteredWhileOpenWithCountersThatMove() throws Exception {
        SoftDevice dev = FreshDevices.fresh("jmx");
        ObjectName device = new ObjectName("org.jrdma:type=Device,name=" + dev.name());
        ObjectName qpA;
        ObjectName qpB;
        try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 4096)) {
            qpA = new ObjectName("org.jrdma:type=QueuePair,device=" + dev.name() + ",qpn=0x" + Integer.toHexString(p.a.qpNum()));
            qpB = new ObjectName("org.jrdma:type=QueuePair,device=" + dev.name() + ",qpn=0x" + Integer.toHexString(p.b.qpNum()));
            Set<ObjectName> names = SERVER.queryNames(new ObjectName("org.jrdma:*,device=" + dev.name()), null);
            System.out.println("JMX: " + device + ", " + names);
            assertThat(SERVER.isRegistered(device)).isTrue();
            assertThat(names).containsExactlyInAnyOrder(qpA, qpB);

            assertThat(SERVER.getAttribute(device, "Provider")).isEqualTo("soft");
            assertThat(SERVER.getAttribute(device, "PortState")).isEqualTo("ACTIVE");
            assertThat(SERVER.getAttribute(device, "QueuePairs")).isEqualTo(2);
            assertThat(SERVER.getAttribute(qpA, "Type")).isEqualTo("RC");
            assertThat(SERVER.getAttribute(qpA, "State")).isEqualTo("RTS");
            assertThat(SERVER.getAttribute(qpA, "DestQpn")).isEqualTo("0x" + Integer.toHexString(p.b.qpNum()));
            assertThat(SERVER.getAttribute(qpA, "SqPsn")).isEqualTo(0x10);
            long sentBefore = (Long) SERVER.getAttribute(device, "SentPackets");

            p.postRecv(1, 0, 1024);
            p.send(2, 0, 1024);
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(10))).hasSize(1);
            assertThat(RcPair.poll(p.cqB, 1, Duration.ofSeconds(10))).hasSize(1);

            assertThat((Long) SERVER.getAttribute(device, "SentPackets")).isGreaterThan(sentBefore);
            assertThat(counter(device, "sent_packets")).isGreaterThan(sentBefore);
            assertThat(counter(qpA, "sent_packets")).isPositive();
            assertThat(counter(qpB, "rcvd_packets")).isPositive();
            assertThat(SERVER.getAttribute(qpA, "OutstandingSendWrs")).isEqualTo(0);

            p.send(3, 0, 64); // no receive posted: b answers RNR NAKs and the SEND stays outstanding
            RcPair.await(() -> p.a.counters().get("rnr_naks_rcvd") > 0, Duration.ofSeconds(10), "an RNR NAK back at a");
            assertThat((Long) SERVER.getAttribute(qpB, "RnrNaksSent")).isPositive();
            assertThat((Long) SERVER.getAttribute(qpA, "RnrNaksReceived")).isPositive();
            assertThat(SERVER.getAttribute(qpA, "OutstandingSendWrs")).isEqualTo(1);
            p.postRecv(4, 0, 1024);
            assertThat(RcPair.poll(p.cqA, 1, Duration.ofSeconds(10))).hasSize(1);

            p.a.close();
            assertThat(SERVER.isRegistered(qpA)).as("destroyed QP").isFalse();
            assertThat(SERVER.isRegistered(qpB)).isTrue();
        }
        assertThat(SERVER.isRegistered(device)).as("closed device").isFalse();
        assertThat(SERVER.isRegistered(qpB)).isFalse();
    }

    @Test
    void aNameTakenTwiceGetsAnIdInsteadOfAnError() throws Exception {
        SoftDevice dev = FreshDevices.fresh("jmx_twice");
        try (Context ctx = dev.open(); Jmx.Registration second = Jmx.registerDevice(dev.name(), stub(dev.name()))) {
            assertThat(SERVER.isRegistered(new ObjectName("org.jrdma:type=Device,name=" + dev.name()))).isTrue(); // the device's own
            System.out.println("JMX: the second " + dev.name() + " is " + second.objectName());
            assertThat(second.objectName()).isNotNull();
            assertThat(second.objectName().getKeyProperty("name")).isEqualTo(dev.name());
            assertThat(second.objectName().getKeyProperty("id")).isNotBlank();
            assertThat(SERVER.isRegistered(second.objectName())).isTrue();
        }
        assertThat(SERVER.queryNames(new ObjectName("org.jrdma:type=Device,name=" + dev.name() + ",*"), null)).isEmpty();
    }

    @Test
    void jmxFalseRegistersNothing() throws Exception {
        System.setProperty(Jmx.PROPERTY, "false");
        try {
            SoftDevice dev = FreshDevices.fresh("jmx_off");
            try (RcPair p = new RcPair(dev, Mtu.MTU_1024, 14, 7, 7, 1, 4096)) {
                assertThat(p.a.qpNum()).isPositive();
                assertThat(SERVER.queryNames(new ObjectName("org.jrdma:type=Device,name=" + dev.name() + ",*"), null)).isEmpty();
                assertThat(SERVER.queryNames(new ObjectName("org.jrdma:type=QueuePair,device=" + dev.name() + ",*"), null)).isEmpty();
            }
        } finally {
            System.clearProperty(Jmx.PROPERTY);
        }
    }

    /** A counter from the Counters attribute (a Map<String, Long> is open-type TabularData of key/value rows). */
    private static long counter(ObjectName name, String key) throws Exception {
        TabularData t = (TabularData) SERVER.getAttribute(name, "Counters");
        return (Long) t.get(new Object[] {key}).get("value");
    }

    private static DeviceMXBean stub(String name) {
        return (DeviceMXBean) java.lang.reflect.Proxy.newProxyInstance(DeviceMXBean.class.getClassLoader(),
                new Class<?>[] {DeviceMXBean.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getName" -> name;
                    case "getCounters" -> Map.of();
                    case "getQueuePairs" -> 0;
                    case "toString" -> "stub " + name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> m.getReturnType() == String.class ? "" : 0L;
                });
    }
}
