package org.jrdma.soft.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The text form: what parse accepts, what toString prints, and that every mistake is named. */
class ImpairmentTest {
    private static final String FULL =
            "loss=1%,burst=p:0.01/r:0.3/h:0.5,reorder=1%/gap:3,dup=1%,corrupt=0.1%,delay=100us/jitter:50us,seed=42";

    @Test
    void theFullExampleParsesIntoEveryKnob() {
        Impairment i = Impairment.parse(FULL);
        assertThat(i.loss()).isEqualTo(0.01);
        assertThat(i.burst()).isEqualTo(new Impairment.Burst(0.01, 0.3, 0.5, 1));
        assertThat(i.reorder()).isEqualTo(0.01);
        assertThat(i.reorderGap()).isEqualTo(3);
        assertThat(i.reorderHoldMicros()).isEqualTo(Impairment.DEFAULT_REORDER_HOLD_MICROS);
        assertThat(i.duplicate()).isEqualTo(0.01);
        assertThat(i.corrupt()).isEqualTo(0.001);
        assertThat(i.delayMicros()).isEqualTo(100);
        assertThat(i.jitterMicros()).isEqualTo(50);
        assertThat(i.seed()).isEqualTo(42);
        assertThat(i.isActive()).isTrue();
    }

    @Test
    void toStringPrintsEveryKnobAndTheSeedInAFormParseReadsBack() {
        Impairment i = Impairment.parse(FULL);
        assertThat(i.toString()).isEqualTo("loss=1%,burst=p:0.01/r:0.3/h:0.5/k:1,reorder=1%/gap:3/hold:500us,"
                + "dup=1%,corrupt=0.1%,delay=100us/jitter:50us,seed=42");
        assertThat(Impairment.parse(i.toString())).isEqualTo(i);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "loss=0.01;            loss=1%",
        "loss=.5;              loss=50%",
        "loss=1e-5;            loss=0.001%",
        "loss=1.0E-5;          loss=0.001%",
        "loss=100%;            loss=100%",
        "loss=0;               ''",
        " corrupt = 0.01% ;    corrupt=0.01%",
        "delay=2ms;            delay=2ms",
        "delay=0.5ms;          delay=500us",
        "delay=1s/jitter:1ms;  delay=1s/jitter:1ms",
        "delay=1500us;         delay=1500us",
        "reorder=10%;          reorder=10%/gap:1/hold:500us",
        "reorder=0.1%/hold:2ms/gap:5; reorder=0.1%/gap:5/hold:2ms",
        "reorder=0/gap:7;      ''",
        "burst=r:0.3/p:0.01;   burst=p:0.01/r:0.3/h:0/k:1",
        "burst=p:0/r:0.5;      ''",
        "burst=p:1%/r:30%/k:99.9%; burst=p:0.01/r:0.3/h:0/k:0.999",
    })
    void equivalentSpellingsPrintOneWay(String text, String printed) {
        Impairment i = Impairment.parse(text + ",seed=5");
        String expected = printed.isEmpty() ? "seed=5" : printed + ",seed=5";
        assertThat(i.toString()).isEqualTo(expected);
        assertThat(Impairment.parse(i.toString())).isEqualTo(i);
    }

    @Test
    void aMissingSeedIsChosenAtRandomAndPrinted() {
        Impairment a = Impairment.parse("loss=1%");
        Impairment b = Impairment.parse("loss=1%");
        assertThat(a.seed()).isNotEqualTo(b.seed()); // 2^-64 to fail
        assertThat(a.toString()).isEqualTo("loss=1%,seed=" + a.seed());
        assertThat(Impairment.parse(a.toString())).isEqualTo(a);
    }

    @Test
    void seedsSpanTheWholeLongRange() {
        assertThat(Impairment.parse("seed=-9223372036854775808").seed()).isEqualTo(Long.MIN_VALUE);
        assertThat(Impairment.parse("seed=9223372036854775807").seed()).isEqualTo(Long.MAX_VALUE);
    }

    /** Property: any impairment the record accepts prints to text that parses back to it. */
    @Test
    void randomImpairmentsRoundTripThroughText() {
        for (long seed = 0; seed < 2000; seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            long delay = r.nextBoolean() ? 0 : r.nextLong(Impairment.MAX_DELAY_MICROS + 1);
            Impairment i = new Impairment(
                    probability(r),
                    r.nextBoolean() ? Impairment.Burst.OFF
                            : new Impairment.Burst(probability(r), probability(r), probability(r), probability(r)),
                    probability(r),
                    1 + r.nextInt(Impairment.MAX_REORDER_GAP),
                    r.nextLong(Impairment.MAX_DELAY_MICROS + 1),
                    probability(r),
                    probability(r),
                    delay,
                    delay == 0 ? 0 : r.nextLong(delay + 1),
                    r.nextLong());
            assertThat(Impairment.parse(i.toString())).as("seed %d: %s", seed, i).isEqualTo(i);
        }
    }

    private static double probability(SplittableRandom r) {
        return switch (r.nextInt(5)) {
            case 0 -> 0;
            case 1 -> 1;
            case 2 -> r.nextInt(10_001) / 10_000.0;
            default -> r.nextDouble(); // 17 significant digits: the round trip must be exact
        };
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "loss=2;                     loss",
        "loss=101%;                  loss",
        "loss=-1%;                   loss",
        "loss=-0.0001;               loss",
        "loss=abc;                   loss",
        "loss=1%%;                   loss",
        "loss=%;                     loss",
        "loss=NaN;                   loss",
        "loss=Infinity;              loss",
        "loss=0x1p-3;                loss",
        "loss=1d;                    loss",
        "loss=1e5;                   loss",
        "'loss=1%;dup=1%';           loss",
        "dup=0.1 %;                  dup",
        "loss=;                      loss",
        "loss;                       loss",
        "foo=1;                      foo",
        "Loss=1%;                    Loss",
        "loss=1%,loss=2%;            loss",
        "seed=1,seed=1;              seed",
        "burst=p:0.1;                burst",
        "burst=r:0.1;                burst",
        "burst=p:0.1/r:0.3/x:1;      burst",
        "burst=p:0.1/p:0.2/r:0.3;    burst",
        "burst=0.1/r:0.3;            burst",
        "burst=p:0.1/r:;             burst",
        "burst=p:2/r:0.3;            burst p",
        "burst=p:0.1/r:0.3/h:-1;     burst h",
        "burst=p:0.1/r:0.3/k:150%;   burst k",
        "reorder=1%/gap:0;           reorder",
        "reorder=1%/gap:-1;          reorder",
        "reorder=1%/gap:x;           reorder",
        "reorder=1%/gap:2.5;         reorder",
        "reorder=1%/gap:2000;        reorder",
        "reorder=1%/gap:99999999999; reorder",
        "reorder=1%/gap:3/gap:4;     reorder",
        "reorder=1%/foo:3;           reorder",
        "reorder=1%/3;               reorder",
        "reorder=gap:3;              reorder",
        "reorder=1%/hold:5;          reorder hold",
        "dup=150%;                   dup",
        "dup=1%/gap:3;               dup",
        "corrupt=-0.1;               corrupt",
        "delay=100;                  delay",
        "delay=100xs;                delay",
        "delay=100 us;               delay",
        "delay=-5us;                 delay",
        "delay=1.5us;                delay",
        "delay=61s;                  delay",
        "delay=100us/jitter:200us;   delay",
        "delay=100us/jitter;         delay",
        "delay=100us/jitter:;        delay",
        "delay=100us/jitter:1/jitter:2; delay",
        "delay=100us/spread:5us;     delay",
        "delay=/jitter:5us;          delay",
        "seed=abc;                   seed",
        "seed=1.5;                   seed",
        "seed=0x10;                  seed",
        "seed=99999999999999999999;  seed",
    })
    void malformedTextFailsNamingTheKey(String text, String key) {
        assertThatThrownBy(() -> Impairment.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("impairment '" + text + "'")
                .hasMessageContaining("': " + key + ":");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", ",", "loss=1%,", ",loss=1%", "loss=1%,,dup=1%", "=1%"})
    void emptyItemsAndMissingKeysFail(String text) {
        assertThatThrownBy(() -> Impairment.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("impairment")
                .hasMessageMatching("(?s).*(empty|no key).*");
    }

    @Test
    void theRecordRejectsWhatTheParserWould() {
        assertThatThrownBy(() -> new Impairment(1.5, Impairment.Burst.OFF, 0, 1, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("loss");
        assertThatThrownBy(() -> new Impairment(Double.NaN, Impairment.Burst.OFF, 0, 1, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("loss");
        assertThatThrownBy(() -> new Impairment(0, null, 0, 1, 0, 0, 0, 0, 0, 1)).hasMessageContaining("burst");
        assertThatThrownBy(() -> new Impairment.Burst(0.1, -0.1, 0, 1)).hasMessageContaining("burst r");
        assertThatThrownBy(() -> new Impairment(0, Impairment.Burst.OFF, 0.1, 0, 0, 0, 0, 0, 0, 1))
                .hasMessageContaining("gap");
        assertThatThrownBy(() -> new Impairment(0, Impairment.Burst.OFF, 0, 1, 0, 0, 0, 10, 11, 1))
                .hasMessageContaining("jitter");
        assertThatThrownBy(() -> new Impairment(0, Impairment.Burst.OFF, 0, 1, 0, 0, 0, -1, 0, 1))
                .hasMessageContaining("delay");
    }

    @Test
    void burstMeanLossIsTheStationaryMixOfBothStates() {
        // π_bad = p / (p + r); loss = π_good (1 - k) + π_bad (1 - h)
        assertThat(new Impairment.Burst(0.01, 0.3, 0, 1).meanLoss()).isCloseTo(0.01 / 0.31, within(1e-12));
        assertThat(new Impairment.Burst(0.05, 0.2, 0.6, 0.99).meanLoss()).isCloseTo(0.8 * 0.01 + 0.2 * 0.4, within(1e-12));
        assertThat(Impairment.Burst.OFF.meanLoss()).isZero();
        assertThat(Impairment.Burst.OFF.isOff()).isTrue();
        assertThat(new Impairment.Burst(0.3, 0.2, 1, 1).isOff()).isTrue();
    }

    @Test
    void noneIsInactiveAndPrintsOnlyItsSeed() {
        assertThat(Impairment.none(3).isActive()).isFalse();
        assertThat(Impairment.none(3)).hasToString("seed=3");
        assertThat(Impairment.parse("seed=3")).isEqualTo(Impairment.none(3));
        assertThat(Impairment.parse("loss=1%,seed=3").withSeed(4)).hasToString("loss=1%,seed=4");
    }
}
