package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.jrdma.tools.OwnDevices;
import org.jrdma.tools.Progress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** perf -D: piped, no progress at all; forced on, a \r line while it runs, erased before the row. */
class PerfProgressTest {
    @RegisterExtension
    static final OwnDevices DEVICE = new OwnDevices("prog");

    @AfterEach
    void unforce() {
        System.clearProperty(Progress.PROPERTY);
    }

    @Test
    void pipedOutputHasNoProgress() throws Exception {
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_bw", "-D", "2", "-s", "4096");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.client().out()).doesNotContain("\r").doesNotContain(" iterations  ");
        assertThat(r.client().out()).containsPattern("\n 4096 +\\d+ +0\\.00 ");
    }

    @Test
    void forcedOnShowsALineInPlaceAndErasesIt() throws Exception {
        System.setProperty(Progress.PROPERTY, "on");
        PerfPair.Result r = PerfPair.run(DEVICE.name(), "write_bw", "-D", "2", "-s", "4096");
        assertThat(r.client().code()).as(r.toString()).isZero();
        String out = r.client().out();
        assertThat(out).containsPattern("\r \\d+\\.\\d s  #bytes 4096  \\d+ iterations");
        // erased before the row: spaces over it, back to the start, then the row
        assertThat(out).containsPattern("\r +\r 4096 +\\d+ +0\\.00 ");
        String shown = org.jrdma.tools.ProgressTestAccess.rendered(out);
        assertThat(shown).doesNotContain("#bytes 4096  ");
        assertThat(shown).containsPattern("\n 4096 +\\d+ +0\\.00 ");
    }
}
