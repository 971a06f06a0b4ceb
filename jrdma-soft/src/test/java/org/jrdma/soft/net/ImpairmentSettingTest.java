package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** -Djrdma.impair / JRDMA_IMPAIR: parsed once, announced once per device, errors say where from. */
class ImpairmentSettingTest {
    @Test
    void theReplayLineNamesTheDeviceAndTheWholeImpairmentWithItsSeed() {
        assertThat(ImpairmentSetting.line("rxe0", Impairment.parse("loss=1%,seed=7")))
                .isEqualTo("jrdma-soft rxe0: impairing outgoing packets: loss=1%,seed=7");
    }

    @Test
    void eachDeviceAnnouncesOnce() {
        List<String> lines = new ArrayList<>();
        Impairment i = Impairment.parse("dup=1%,seed=3");
        String name = "announce_" + System.nanoTime();
        assertThat(ImpairmentSetting.announce(name, i, lines::add)).isTrue();
        assertThat(ImpairmentSetting.announce(name, i, lines::add)).isFalse();
        assertThat(ImpairmentSetting.announce(name + "_other", i, lines::add)).isTrue();
        assertThat(lines).containsExactly(
                "jrdma-soft " + name + ": impairing outgoing packets: dup=1%,seed=3",
                "jrdma-soft " + name + "_other: impairing outgoing packets: dup=1%,seed=3");
    }

    @Test
    void thePropertyIsParsedOnceSoEveryDeviceSharesTheRandomSeed() {
        String text = "loss=0.5%,corrupt=" + (System.nanoTime() % 1000) + "e-6"; // unique: not cached by another test
        System.setProperty(ImpairmentSetting.PROPERTY, text);
        try {
            Impairment first = ImpairmentSetting.configured();
            Impairment second = ImpairmentSetting.configured();
            assertThat(first).isNotNull().isSameAs(second);
            assertThat(first.loss()).isEqualTo(0.005);
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }

    @Test
    void aMalformedPropertyFailsNamingThePropertyAndTheKey() {
        System.setProperty(ImpairmentSetting.PROPERTY, "loss=2");
        try {
            assertThatThrownBy(ImpairmentSetting::configured)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("-Djrdma.impair: impairment 'loss=2': loss:");
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }

    @Test
    void unsetOrBlankMeansNoImpairment() {
        System.setProperty(ImpairmentSetting.PROPERTY, "  ");
        try {
            if (System.getenv(ImpairmentSetting.ENV) == null) {
                assertThat(ImpairmentSetting.configured()).isNull();
            }
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }
}
