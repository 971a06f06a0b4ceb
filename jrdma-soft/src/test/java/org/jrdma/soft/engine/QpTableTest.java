package org.jrdma.soft.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.VerbsException;
import org.junit.jupiter.api.Test;

/** The QP table alone, filled with numbered stand-ins for QPs. */
class QpTableTest {
    record Qp(int qpNum) implements QpTable.Entry {
    }

    private final QpTable<Qp> table = new QpTable<>(new Qp[0]);

    @Test
    void theGsiQpIsQp1AndThereIsOne() {
        Qp gsi = table.create(QpType.GSI, Qp::new);
        assertThat(gsi.qpNum()).isEqualTo(QpType.GSI_QP_NUM).isEqualTo(1);
        assertThatThrownBy(() -> table.create(QpType.GSI, Qp::new)).isInstanceOfSatisfying(VerbsException.class,
                e -> assertThat(e.errno()).isEqualTo(Errno.EBUSY));

        table.remove(gsi);
        assertThat(table.create(QpType.GSI, Qp::new).qpNum()).as("QP1 is not quarantined").isEqualTo(1);
    }

    @Test
    void otherQpsGetDistinctNumbersNeverZeroOrOne() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            int qpn = table.create(QpType.RC, Qp::new).qpNum();
            assertThat(qpn).isNotIn(0, 1);
            assertThat(seen.add(qpn)).as("QPN %d handed out twice", qpn).isTrue();
        }
        assertThat(table.all()).hasSize(500);
    }

    @Test
    void qpsAreFoundByNumberAndWalkedInCreationOrder() {
        Qp a = table.create(QpType.RC, Qp::new);
        Qp b = table.create(QpType.UD, Qp::new);
        Qp c = table.create(QpType.UC, Qp::new);

        assertThat(table.get(b.qpNum())).isSameAs(b);
        assertThat(table.all()).containsExactly(a, b, c);

        table.remove(b);
        assertThat(table.get(b.qpNum())).isNull();
        assertThat(table.all()).containsExactly(a, c);
    }

    /** A pass walks the array it read: creating or destroying a QP meanwhile gives a new array, not a changed one. */
    @Test
    void aPassesArrayDoesNotChangeUnderIt() {
        Qp a = table.create(QpType.RC, Qp::new);
        Qp[] walked = table.all();

        Qp b = table.create(QpType.RC, Qp::new);
        table.remove(a);

        assertThat(walked).containsExactly(a);
        assertThat(table.all()).containsExactly(b).isNotSameAs(walked);
    }

    @Test
    void theEmptyArrayMustBeEmpty() {
        assertThatThrownBy(() -> new QpTable<>(new Qp[1])).isInstanceOf(IllegalArgumentException.class);
    }
}
