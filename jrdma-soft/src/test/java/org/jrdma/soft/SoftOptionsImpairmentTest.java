package org.jrdma.soft;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.soft.net.ImpairedDatagrams;
import org.jrdma.soft.net.Impairment;
import org.jrdma.soft.net.ImpairmentSetting;
import org.jrdma.verbs.Context;
import org.junit.jupiter.api.Test;

/** How a device gets its impairment: from SoftOptions, or from the process's setting. */
class SoftOptionsImpairmentTest {
    @Test
    void anImpairedDeviceSendsThroughImpairedDatagrams() {
        Impairment i = Impairment.parse("loss=1%,seed=5");
        SoftDevice dev = FreshDevices.fresh("impopt", SoftOptions.defaults().impairment(i));
        try (Context ctx = dev.open()) {
            assertThat(((SoftContext) ctx).hca().datagrams())
                    .isInstanceOfSatisfying(ImpairedDatagrams.class, d -> assertThat(d.impairment()).isEqualTo(i));
        }
    }

    @Test
    void forDeviceReadsTheSystemProperty() {
        System.setProperty(ImpairmentSetting.PROPERTY, "dup=1%,seed=77");
        try {
            SoftDevice dev = FreshDevices.fresh("impprop", SoftOptions.forDevice("impprop"));
            try (Context ctx = dev.open()) {
                assertThat(((SoftContext) ctx).hca().datagrams()).isInstanceOfSatisfying(ImpairedDatagrams.class,
                        d -> assertThat(d.impairment()).isEqualTo(Impairment.parse("dup=1%,seed=77")));
            }
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }

    @Test
    void withoutTheSettingForDeviceIsNotImpaired() {
        if (System.getenv(ImpairmentSetting.ENV) != null) {
            return; // a chaos run of the whole suite: every device is impaired on purpose
        }
        SoftDevice dev = FreshDevices.fresh("impnone", SoftOptions.forDevice("impnone"));
        try (Context ctx = dev.open()) {
            assertThat(((SoftContext) ctx).hca().datagrams()).isNotInstanceOf(ImpairedDatagrams.class);
        }
    }
}
