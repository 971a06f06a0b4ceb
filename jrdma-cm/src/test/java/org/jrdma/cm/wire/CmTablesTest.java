package org.jrdma.cm.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Walks every field table of {@link CmTables}: each row inside its area (a message's 232 bytes of
 * CM data, the MAD header's 24), no bit claimed twice, every record component named, and each width
 * one the component's Java type holds — and the width the record's own constructor enforces, so
 * the table and the record cannot disagree about what fits.
 */
class CmTablesTest {
    record Table(String name, CmLayout<?> layout, int areaBytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Table> tables = Stream.concat(
            CmTables.MESSAGES.stream().map(l -> new Table(l.type().getSimpleName(), l, Mad.DATA_SIZE)),
            Stream.of(new Table("MadHeader", CmTables.MAD_HEADER, Mad.HEADER_SIZE))).toList();

    @Test
    void thereIsOneTablePerSupportedAttribute() {
        assertThat(CmTables.MESSAGES).extracting(l -> Records.zero(cast(l.type())).attribute())
                .containsExactly(CmAttribute.REQ, CmAttribute.MRA, CmAttribute.REJ, CmAttribute.REP, CmAttribute.RTU,
                        CmAttribute.DREQ, CmAttribute.DREP, CmAttribute.SIDR_REQ, CmAttribute.SIDR_REP);
        for (CmAttribute a : CmAttribute.values()) {
            CmLayout<? extends CmMessage> l = CmTables.of(a);
            if (l != null) {
                assertThat(Records.zero(cast(l.type())).attribute()).as("%s", a).isEqualTo(a);
            }
        }
        assertThat(CmTables.of(CmAttribute.LAP)).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("tables")
    void everyRowLiesInsideTheArea(Table t) {
        for (CmField f : t.layout().fields()) {
            assertThat(f.endBit()).as("%s ends at bit %d", f, f.endBit()).isLessThanOrEqualTo(t.areaBytes() * 8);
        }
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("tables")
    void noTwoRowsShareABit(Table t) {
        String[] owner = new String[t.areaBytes() * 8];
        for (CmField f : t.layout().fields()) {
            for (int bit = f.endBit() - f.bitWidth(); bit < f.endBit(); bit++) {
                assertThat(owner[bit]).as("byte %d bit %d: %s and %s", bit / 8, bit % 8, owner[bit], f.name()).isNull();
                owner[bit] = f.name();
            }
        }
    }

    /** Every component has rows, and every row a component: no field is silently dropped. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("tables")
    void theRowsNameEveryComponent(Table t) {
        assertThat(t.layout().fields().stream().map(CmField::name).distinct())
                .containsExactlyInAnyOrderElementsOf(Records.paths(t.layout().type()));
    }

    @ParameterizedTest(name = "{0}")
    @FieldSource("tables")
    void widthsFitTheirComponents(Table t) {
        Record zero = Records.zeroRecord(t.layout().type());
        piecesByName(t).forEach((name, pieces) -> {
            Class<?> type = Records.type(t.layout().type(), name);
            int width = pieces.stream().mapToInt(CmField::bitWidth).sum();
            if (type == byte[].class) {
                assertThat(pieces).as(name).hasSize(1);
                assertThat(pieces.getFirst().byteAligned()).as(name).isTrue();
                assertThat(width / 8).as("%s: the record's capacity", name).isEqualTo(((byte[]) Records.at(zero, name)).length);
            } else if (type == boolean.class) {
                assertThat(width).as(name).isEqualTo(1);
            } else if (type == long.class) {
                assertThat(width).as(name).isEqualTo(64);
            } else {
                assertThat(type).as(name).isEqualTo(int.class);
                assertThat(width).as(name).isBetween(1, 32);
            }
            if (type != byte[].class) {
                for (CmField p : pieces) {
                    assertThat(p.bitOffset() + p.bitWidth()).as("%s spans at most 8 bytes", p).isLessThanOrEqualTo(64);
                }
            }
        });
    }

    /** The record takes the all-ones value of its rows and refuses one bit more, naming the field. */
    @ParameterizedTest(name = "{0}")
    @FieldSource("tables")
    void theRecordChecksTheTablesWidths(Table t) {
        Record zero = Records.zeroRecord(t.layout().type());
        piecesByName(t).forEach((name, pieces) -> {
            int width = pieces.stream().mapToInt(CmField::bitWidth).sum();
            if (Records.type(t.layout().type(), name) != int.class || width == 32) {
                return;
            }
            String simple = name.substring(name.lastIndexOf('.') + 1);
            assertThatCode(() -> Records.replaced(zero, name, (1 << width) - 1)).as(name).doesNotThrowAnyException();
            assertThatThrownBy(() -> Records.replaced(zero, name, 1 << width)).as(name)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(simple);
        });
    }

    /** IBA's REQ keeps the primary path in CM bytes 52–95 and the alternate in 96–139, 44 bytes each. */
    @Test
    void theReqsPathsFillTheirSlots() {
        // The path's last field, Local ACK Timeout, is in its byte 43 (the bits after it are REQ's).
        assertThat((CmTables.PATH.stream().mapToInt(CmField::endBit).max().orElseThrow() - 1) / 8).isEqualTo(43);
        for (CmField f : CmTables.REQ.fields()) {
            int first = f.byteOffset();
            int last = (f.endBit() - 1) / 8;
            if (f.name().startsWith("primaryPath.")) {
                assertThat(first).as("%s", f).isGreaterThanOrEqualTo(52);
                assertThat(last).as("%s", f).isLessThanOrEqualTo(95);
            } else if (f.name().startsWith("alternatePath.")) {
                assertThat(first).as("%s", f).isGreaterThanOrEqualTo(96);
                assertThat(last).as("%s", f).isLessThanOrEqualTo(139);
            }
        }
    }

    private static Map<String, List<CmField>> piecesByName(Table t) {
        Map<String, List<CmField>> out = new LinkedHashMap<>();
        for (CmField f : t.layout().fields()) {
            out.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(f);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Class<? extends CmMessage> cast(Class<?> type) {
        return (Class<? extends CmMessage>) type;
    }
}
