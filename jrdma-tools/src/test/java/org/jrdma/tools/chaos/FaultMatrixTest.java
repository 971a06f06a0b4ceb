package org.jrdma.tools.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chaos matrix, CI-sized (issue 3 item 6): SEND, WRITE, READ and FETCH_ADD through every
 * cell of RELIABILITY-SECURITY §6.9, each byte verified and the atomic counter exact; the cut
 * that never heals must end in RETRY_EXC_ERR after the retry budget, not hang. No assertion on
 * speed: the table is printed for the record. `jrdma chaos` runs the long version.
 */
class FaultMatrixTest {
    private static final long SEED = 20261130L;

    @Test
    void everyCellDeliversExactlyOnceOrFailsWithAnErrorCompletion() {
        ChaosConfig config = ChaosConfig.ciSized(SEED);
        List<CellResult> results = FaultMatrix.run(config, ChaosCell.standard(), r -> { });
        System.out.println(ChaosTable.table(results));

        assertThat(results).hasSize(ChaosCell.standard().size());
        for (CellResult r : results) {
            String why = r.cell().id() + " " + r.cell().name() + ": A " + r.impairmentA() + " | B " + r.impairmentB()
                    + " → " + r.error() + " " + r.counters();
            assertThat(r.passed()).as(why).isTrue();
            if (!r.cell().expectsError()) {
                assertThat(r.verified()).as(why).isTrue();
                assertThat(r.bytes()).as(why).isEqualTo(3L * config.messages() * config.size());
            }
            String fromA = r.cell().fromA();
            // ~2000 packets a cell: 1 % and more must show losses; 0.1 % may, by the seed, lose none.
            if ((fromA.startsWith("loss") && !fromA.startsWith("loss=0.1%")) || fromA.startsWith("burst")) {
                assertThat(r.counter("impair_dropped")).as("the network lost packets: " + why).isPositive();
                assertThat(r.counter("retransmitted_packets")).as("and RC resent them: " + why).isPositive();
            }
            if (fromA.startsWith("dup")) {
                assertThat(r.counter("impair_duplicated")).as(why).isPositive();
            }
            if (r.counter("impair_corrupted") > 0) {
                assertThat(r.counter("drop_bad_icrc") + r.counter("drop_bad_length") + r.counter("drop_runt")
                        + r.counter("drop_unknown_opcode") + r.counter("drop_unknown_qpn") + r.counter("drop_bad_tver")
                        + r.counter("drop_bad_pkey") + r.counter("drop_wrong_transport") + r.counter("completer_drops"))
                        .as("every corrupted packet was caught: " + why).isPositive();
            }
        }
        CellResult cut = results.stream().filter(r -> r.cell().expectsError()).findFirst().orElseThrow();
        assertThat(cut.error()).isEqualTo("RETRY_EXC_ERR");
        // retry_cnt 7: eight tries of 4.096 µs × 2^timeout each before giving up, at the least.
        assertThat(cut.errorNanos()).isGreaterThanOrEqualTo((long) (8 * 4096L * (1L << config.timeout()) * 0.9));
    }
}
