package org.jrdma.verbs.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.Qkey;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpAttrMask;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/** The table itself; every transition is also exercised against a provider by the testkit. */
class QpTransitionsTest {
    @Test
    void legalTransitionsAreExactlyTheKernelTable() {
        QpState[] states = {QpState.RESET, QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD, QpState.SQE, QpState.ERR};
        int legal = 0;
        for (QpState from : states) {
            for (QpState to : states) {
                if (QpTransitions.isLegal(QpType.RC, from, to)) {
                    legal++;
                }
            }
        }
        // any→RESET (7) + any→ERR (7) + RESET→INIT, INIT→INIT, INIT→RTR, RTR→RTS, RTS→RTS, RTS→SQD, SQD→RTS, SQD→SQD
        assertThat(legal).isEqualTo(22);
        assertThat(QpTransitions.isLegal(QpType.RC, QpState.SQE, QpState.RTS)).isFalse();
        assertThat(QpTransitions.isLegal(QpType.UC, QpState.SQE, QpState.RTS)).isTrue();
        assertThat(QpTransitions.isLegal(QpType.RC, QpState.RESET, QpState.RTR)).isFalse();
    }

    @Test
    void requiredAttributesFollowIbvModifyQp() {
        assertThat(QpTransitions.required(QpType.RC, QpState.INIT, QpState.RTR)).isEqualTo(QpAttrMask.of(
                QpAttrMask.AV, QpAttrMask.PATH_MTU, QpAttrMask.DEST_QPN, QpAttrMask.RQ_PSN,
                QpAttrMask.MAX_DEST_RD_ATOMIC, QpAttrMask.MIN_RNR_TIMER));
        assertThat(QpTransitions.required(QpType.UC, QpState.RTR, QpState.RTS)).isEqualTo(QpAttrMask.SQ_PSN.bit());
        assertThat(QpTransitions.required(QpType.UD, QpState.RESET, QpState.INIT))
                .isEqualTo(QpAttrMask.of(QpAttrMask.PKEY_INDEX, QpAttrMask.PORT, QpAttrMask.QKEY));
    }

    @Test
    void errorsNameTheAttribute() {
        QpAttr rtr = new QpAttr().state(QpState.RTR).pathMtu(Mtu.MTU_1024).rqPsn(1).maxDestRdAtomic(1).minRnrTimer(12)
                .ahAttr(AhAttr.roce(Gid.ZERO, 0, 1));
        assertThatThrownBy(() -> QpTransitions.check(QpType.RC, QpState.INIT, rtr, rtr.mask()))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessageContaining("modify_qp INIT→RTR: missing required attribute DEST_QPN");
        QpAttr extra = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0).sqPsn(5);
        assertThatThrownBy(() -> QpTransitions.check(QpType.RC, QpState.RESET, extra, extra.mask()))
                .hasMessageContaining("unexpected attribute SQ_PSN");
        QpAttr big = new QpAttr().state(QpState.RTS).sqPsn(0x1000000).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1);
        assertThatThrownBy(() -> QpTransitions.check(QpType.RC, QpState.RTR, big, big.mask()))
                .hasMessageContaining("SQ_PSN 16777216 outside 0..0xFFFFFF");
        QpAttr illegal = new QpAttr().state(QpState.RTS);
        assertThatThrownBy(() -> QpTransitions.check(QpType.RC, QpState.RESET, illegal, illegal.mask()))
                .hasMessageContaining("RESET→RTS: not a legal transition");
    }

    @Test
    void withoutStateTheTargetIsTheCurrentState() {
        QpAttr a = new QpAttr().minRnrTimer(3);
        assertThat(QpTransitions.check(QpType.RC, QpState.RTS, a, a.mask())).isEqualTo(QpState.RTS);
    }

    @Test
    void theGsiQpFollowsUdButNeedsNoPortAtInit() {
        assertThat(QpTransitions.required(QpType.GSI, QpState.RESET, QpState.INIT))
                .isEqualTo(QpAttrMask.of(QpAttrMask.PKEY_INDEX, QpAttrMask.QKEY));
        assertThat(QpTransitions.optional(QpType.GSI, QpState.RESET, QpState.INIT)).isEqualTo(QpAttrMask.PORT.bit());
        QpState[] states = {QpState.RESET, QpState.INIT, QpState.RTR, QpState.RTS, QpState.SQD, QpState.SQE, QpState.ERR};
        for (QpState from : states) {
            for (QpState to : states) {
                assertThat(QpTransitions.isLegal(QpType.GSI, from, to)).as("%s→%s", from, to)
                        .isEqualTo(QpTransitions.isLegal(QpType.UD, from, to));
                if (QpTransitions.isLegal(QpType.UD, from, to) && !(from == QpState.RESET && to == QpState.INIT)) {
                    assertThat(QpTransitions.required(QpType.GSI, from, to)).isEqualTo(QpTransitions.required(QpType.UD, from, to));
                    assertThat(QpTransitions.optional(QpType.GSI, from, to)).isEqualTo(QpTransitions.optional(QpType.UD, from, to));
                }
            }
        }
        QpAttr kernelStyle = new QpAttr().state(QpState.INIT).pkeyIndex(0).qkey(Qkey.QP1);
        assertThat(QpTransitions.check(QpType.GSI, QpState.RESET, kernelStyle, kernelStyle.mask())).isEqualTo(QpState.INIT);
        QpAttr udStyle = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(Qkey.QP1);
        assertThat(QpTransitions.check(QpType.GSI, QpState.RESET, udStyle, udStyle.mask())).isEqualTo(QpState.INIT);
    }

    @Test
    void onlyTheGsiQpHoldsAControlledQkeyAndItHoldsQp1s() {
        for (QpState from : new QpState[] {QpState.RESET, QpState.INIT}) {
            QpAttr controlled = new QpAttr().state(QpState.INIT).pkeyIndex(0).port(1).qkey(Qkey.QP1);
            assertThatThrownBy(() -> QpTransitions.check(QpType.UD, from, controlled, controlled.mask()))
                    .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPERM))
                    .hasMessageContaining("Q_Key 0x80010000 is a controlled Q_Key (high-order bit set): "
                            + "only the GSI QP may use it");
        }
        QpAttr atRts = new QpAttr().qkey(0x80000001);
        assertThatThrownBy(() -> QpTransitions.check(QpType.UD, QpState.RTS, atRts, atRts.mask()))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EPERM));
        QpAttr plain = new QpAttr().qkey(0x7FFFFFFF);
        assertThat(QpTransitions.check(QpType.UD, QpState.RTS, plain, plain.mask())).isEqualTo(QpState.RTS);

        QpAttr other = new QpAttr().state(QpState.INIT).pkeyIndex(0).qkey(0x11111111);
        assertThatThrownBy(() -> QpTransitions.check(QpType.GSI, QpState.RESET, other, other.mask()))
                .isInstanceOfSatisfying(VerbsException.class, e -> assertThat(e.errno()).isEqualTo(Errno.EINVAL))
                .hasMessageContaining("the GSI QP's Q_Key is 0x80010000");
    }
}
