package org.jrdma.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void medianOfAnOddCountIsTheMiddleValue() {
        assertThat(Summary.of(List.of(5.0, 1.0, 3.0))).isEqualTo(new Summary(3, 3.0, 1.0, 5.0));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Summary.of(List.of(4.0, 1.0, 10.0, 2.0))).isEqualTo(new Summary(4, 3.0, 1.0, 10.0));
    }

    @Test
    void oneValueIsItsOwnMedianMinAndMax() {
        assertThat(Summary.of(List.of(7.5))).isEqualTo(new Summary(1, 7.5, 7.5, 7.5));
    }

    @Test
    void noValuesHaveNoSummary() {
        assertThat(Summary.of(List.of())).isNull();
    }
}
