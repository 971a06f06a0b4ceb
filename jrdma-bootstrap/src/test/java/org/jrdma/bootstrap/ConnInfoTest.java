package org.jrdma.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.Gid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ConnInfoTest {
    private static final Gid GID = TestInfos.gid("10.77.0.3");

    @Test
    void printsLikeRcPingpongsAddressLine() {
        assertThat(TestInfos.CLIENT).hasToString("LID 0x0000, QPN 0x000012, PSN 0xe3de62, GID ::ffff:10.77.0.3");
        assertThat(new ConnInfo(0xbeef, 0xfffffe, 0, Gid.ZERO)).hasToString("LID 0xbeef, QPN 0xfffffe, PSN 0x000000, GID ::");
    }

    @Test
    void acceptsTheEdgesOfEveryRange() {
        new ConnInfo(0, 2, 0, Gid.ZERO);
        new ConnInfo(0xFFFF, 0xFFFFFE, 0xFFFFFF, GID);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0x10000, Integer.MIN_VALUE})
    void refusesALidOutside16Bits(int lid) {
        assertField(() -> new ConnInfo(lid, 0x12, 0, GID), "lid");
    }

    /** OOB-08: QPN 0, 1, 0xffffff, ≥ 2^24 refused with a field-specific error. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 0xFFFFFF, 0x1000000, -1})
    void refusesSpecialAndOversizedQpns(int qpn) {
        assertField(() -> new ConnInfo(0, qpn, 0, GID), "qpn");
    }

    @Test
    void namesTheSpecialQpnsInTheMessage() {
        assertThatThrownBy(() -> new ConnInfo(0, 0, 0, GID)).hasMessageContaining("QP0");
        assertThatThrownBy(() -> new ConnInfo(0, 1, 0, GID)).hasMessageContaining("QP1");
        assertThatThrownBy(() -> new ConnInfo(0, 0xFFFFFF, 0, GID)).hasMessageContaining("multicast");
        assertThatThrownBy(() -> new ConnInfo(0, -1, 0, GID)).hasMessageContaining("0xffffffff");
    }

    /** OOB-08: a PSN ≥ 2^24 is refused, never masked as rxe does. */
    @ParameterizedTest
    @ValueSource(ints = {-1, 0x1000000, Integer.MAX_VALUE})
    void refusesAPsnOutside24BitsInsteadOfMaskingIt(int psn) {
        assertField(() -> new ConnInfo(0, 0x12, psn, GID), "psn");
    }

    /** OOB-08: a multicast GID (ff00::/8) is not a unicast peer. */
    @Test
    void refusesAMissingOrMulticastGid() {
        assertField(() -> new ConnInfo(0, 0x12, 0, null), "gid");
        assertField(() -> new ConnInfo(0, 0x12, 0, TestInfos.gid("ff02::1")), "gid");
    }

    @Test
    void aLocallyBuiltBadValueIsNotCalledAMalformedMessage() {
        assertThatThrownBy(() -> new ConnInfo(0, 0, 0, GID))
                .isExactlyInstanceOf(InvalidFieldException.class)
                .isInstanceOf(BootstrapException.class);
    }

    static void assertField(Runnable r, String field) {
        assertThatThrownBy(r::run)
                .isInstanceOf(InvalidFieldException.class)
                .satisfies(e -> assertThat(((InvalidFieldException) e).field()).isEqualTo(field))
                .hasMessageStartingWith(field + ": ");
    }
}
