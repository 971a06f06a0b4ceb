package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertNames;

import java.util.stream.Stream;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpCap;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.QpTransitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the expectations of {@link QpStateMachineSuite} against the reference checker
 * {@link QpTransitions}, without a provider: the attributes {@link RcAttrs#every} builds are
 * valid for every legal transition, and each refusal the suite expects is one the table makes,
 * naming what the suite looks for.
 */
class QpStateMachineExpectationsTest {
    private static final QpType RC = QpType.RC;
    private static final Gid GID = Gid.fromHex("00000000000000000000ffff7f000001");

    private static QpAttr every(QpState from, QpState to) {
        return RcAttrs.every(from, to, AhAttr.roce(GID, 0, 1), Mtu.MTU_1024, 1, 0x1234, 0x3A5C1, new QpCap(16, 16, 1, 1, 0));
    }

    static Stream<Arguments> legalTransitions() {
        return QpStateMachineSuite.legalTransitions();
    }

    static Stream<Arguments> illegalTransitions() {
        return QpStateMachineSuite.illegalTransitions();
    }

    static Stream<Arguments> requiredAttributes() {
        return QpStateMachineSuite.requiredAttributes();
    }

    static Stream<Arguments> unexpectedAttributes() {
        return QpStateMachineSuite.unexpectedAttributes();
    }

    @Test
    void theSuiteCoversEveryReachableRcTransition() {
        // 6 reachable states × 7 targets; legal: 6 → RESET, 6 → ERR and 8 others.
        assertThat(legalTransitions().count()).isEqualTo(20);
        assertThat(illegalTransitions().count()).isEqualTo(22);
        assertThat(requiredAttributes().count()).isEqualTo(3 + 6 + 5);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("legalTransitions")
    void requiredAttributesAloneAreAccepted(QpState from, QpState to) {
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to);
        assertThat(QpTransitions.check(RC, from, every(from, to), mask)).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("legalTransitions")
    void everyOptionalAttributeWithASetterIsAcceptedToo(QpState from, QpState to) {
        int withoutSetter = QpAttrMask.of(QpAttrMask.ALT_PATH, QpAttrMask.PATH_MIG_STATE, QpAttrMask.RATE_LIMIT);
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to)
                | (QpTransitions.optional(RC, from, to) & ~withoutSetter);
        assertThat(QpTransitions.check(RC, from, every(from, to), mask)).isEqualTo(to);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("illegalTransitions")
    void illegalTransitionsAreRefusedNamingBothStates(QpState from, QpState to) {
        int mask = QpAttrMask.STATE.bit() | QpStateMachineSuite.attributesLeadingTo(to);
        VerbsException e = assertFails(Errno.EINVAL, () -> QpTransitions.check(RC, from, every(from, to), mask));
        assertNames(e, from.name());
        assertNames(e, to.name());
        assertThat(e.getMessage()).contains("not a legal transition");
    }

    @ParameterizedTest(name = "{0} → {1} without {2}")
    @MethodSource("requiredAttributes")
    void droppingARequiredAttributeIsRefusedNamingIt(QpState from, QpState to, QpAttrMask missing) {
        int mask = (QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to)) & ~missing.bit();
        assertNames(assertFails(Errno.EINVAL, () -> QpTransitions.check(RC, from, every(from, to), mask)),
                missing.name());
    }

    @ParameterizedTest(name = "{0} → {1} with {2}")
    @MethodSource("unexpectedAttributes")
    void anUnexpectedAttributeIsRefusedNamingIt(QpState from, QpState to, QpAttrMask extra) {
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, from, to) | extra.bit();
        assertNames(assertFails(Errno.EINVAL, () -> QpTransitions.check(RC, from, every(from, to), mask)),
                extra.name());
    }

    @ParameterizedTest
    @EnumSource(QpStateMachineSuite.OutOfRange.class)
    void outOfRangeValuesAreRefusedNamingTheAttribute(QpStateMachineSuite.OutOfRange bad) {
        QpAttr attr = bad.corrupt.apply(every(bad.from, bad.to()));
        int mask = QpAttrMask.STATE.bit() | QpTransitions.required(RC, bad.from, bad.to());
        assertNames(assertFails(Errno.EINVAL, () -> QpTransitions.check(RC, bad.from, attr, mask)), bad.name());
    }

    @Test
    void rcAttrsConnectionStepsCarryExactlyTheRequiredAttributes() {
        assertThat(RcAttrs.init(1, RcAttrs.ACCESS).mask())
                .isEqualTo(QpAttrMask.STATE.bit() | QpTransitions.required(RC, QpState.RESET, QpState.INIT));
        assertThat(RcAttrs.rtr(AhAttr.roce(GID, 0, 1), Mtu.MTU_1024, 0x1234, 0).mask())
                .isEqualTo(QpAttrMask.STATE.bit() | QpTransitions.required(RC, QpState.INIT, QpState.RTR));
        assertThat(RcAttrs.rts(0).mask())
                .isEqualTo(QpAttrMask.STATE.bit() | QpTransitions.required(RC, QpState.RTR, QpState.RTS));
    }
}
