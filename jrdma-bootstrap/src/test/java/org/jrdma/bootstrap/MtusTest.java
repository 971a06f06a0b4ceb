package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.Mtu;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MtusTest {
    @Test
    void acceptsTheFiveIbMtus() {
        assertThat(Mtus.of(256)).isEqualTo(Mtu.MTU_256);
        assertThat(Mtus.parse("1024")).isEqualTo(Mtu.MTU_1024);
        assertThat(Mtus.parse("4096")).isEqualTo(Mtu.MTU_4096);
    }

    /** OOB-08: MTU ∉ {256…4096} refused naming the field. */
    @ParameterizedTest
    @ValueSource(ints = {0, 100, 8192, -1024, 1500, 9000})
    void refusesOtherSizesNamingTheField(int bytes) {
        assertThatThrownBy(() -> Mtus.of(bytes))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("mtu"))
                .hasMessageContaining(String.valueOf(bytes));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "100", "8192", "", " 1024", "1024 ", "+1024", "0x400", "1k", "99999999999999999999"})
    void refusesBadText(String text) {
        assertThatThrownBy(() -> Mtus.parse(text))
                .isInstanceOf(MalformedMessageException.class)
                .satisfies(e -> assertThat(((MalformedMessageException) e).field()).isEqualTo("mtu"));
    }
}
