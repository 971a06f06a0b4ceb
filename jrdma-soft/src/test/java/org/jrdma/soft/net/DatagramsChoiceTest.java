package org.jrdma.soft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** {@code jrdma.soft.datagrams}: auto, native or nio, and what each opens. */
class DatagramsChoiceTest {
    @Test
    void eachSettingNamesItsFactory() {
        assertSame(DatagramsFactory.UDP, DatagramsChoice.of("nio").factory());
        assertSame(DatagramsFactory.NATIVE, DatagramsChoice.of(" Native ").factory());
        assertEquals("native", DatagramsChoice.of("native").path());
        DatagramsChoice auto = DatagramsChoice.of("AUTO");
        assertEquals("auto", auto.setting());
        assertEquals(NativeDatagrams.isAvailable() ? "native" : "nio", auto.path(), auto.reason());
        assertSame(NativeDatagrams.isAvailable() ? DatagramsFactory.NATIVE : DatagramsFactory.UDP, auto.factory());
    }

    @Test
    void anUnknownSettingSaysWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatagramsChoice.of("epoll"));
        assertTrue(e.getMessage().contains("auto, native or nio"), e.getMessage());
        assertTrue(e.getMessage().contains(DatagramsChoice.PROPERTY), e.getMessage());
    }

    @Test
    void theBuildPassesThePropertyThroughSoTheSuiteCanBeRunOnEitherPath() {
        // the soft pom sets it from the Maven property (nio unless -Djrdma.soft.datagrams=…)
        String v = System.getProperty(DatagramsChoice.PROPERTY);
        assertTrue(v != null && !v.isBlank(), "surefire sets " + DatagramsChoice.PROPERTY);
        assertEquals(DatagramsChoice.of(v).factory(), DatagramsChoice.configured().factory());
        // and every device the suite opens with the defaults takes that door
        assertSame(DatagramsChoice.of(v).factory(), org.jrdma.soft.SoftOptions.defaults().datagrams());
    }

    @Test
    void autoOpensTheNativeDoorWhereItIsAvailable() throws IOException {
        assumeTrue(NativeDatagrams.isAvailable(), NativeDatagrams::unavailableReason);
        try (Datagrams d = DatagramsFactory.AUTO.open(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            assertInstanceOf(NativeDatagrams.class, d);
        }
        try (Datagrams d = DatagramsFactory.UDP.open(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0))) {
            assertInstanceOf(UdpDatagrams.class, d);
        }
    }
}
