package org.jrdma.tools.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jrdma.soft.net.ImpairmentSetting;
import org.jrdma.tools.OwnDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs over a network that loses packets (the soft devices' seeded impairment), on two devices:
 * what UC loses is counted, never called a --check failure; a peer that cannot be reached is
 * named as the cause, not the flush it leads to.
 */
class PerfLossTest {
    @RegisterExtension
    static final OwnDevices DEVICES = new OwnDevices("losss", "lossc");

    /** Server and client on a network with {@code impairment} (both directions). */
    private static PerfPair.Result runWith(String impairment, String... args) throws Exception {
        System.setProperty(ImpairmentSetting.PROPERTY, impairment);
        try {
            return PerfPair.runOn("127.0.0.1", DEVICES.server(), DEVICES.client(), List.of(), List.of(), args);
        } finally {
            System.clearProperty(ImpairmentSetting.PROPERTY);
        }
    }

    /**
     * A 64 KiB UC WRITE is 16 packets: with 2 % loss about one in four is lost after its first
     * packets were placed, and among the 16 target slots some last WRITE always is. The target
     * used to fail such a slot ("WRITE … differs at byte …"); it holds pieces of earlier WRITEs
     * into it, which is what UC leaves.
     */
    @Test
    void ucWriteBwCountsTheWritesItLost() throws Exception {
        PerfPair.Result r = runWith("loss=2%,seed=5", "write_bw", "-c", "UC", "-s", "65536", "-n", "400", "--check");
        assertThat(r.client().code()).as(r.toString()).isZero();
        assertThat(r.server().code()).as(r.toString()).isZero();
        PerfEndToEndTest.assertChecked(r.server().out());
        assertThat(r.server().out()).containsPattern("\n   \\([1-9]\\d* of the slots hold an earlier WRITE into them, in part"
                + " or whole, or nothing: UC lost the later ones\\)\n");
    }

    /**
     * Nothing gets through: the client's first SEND runs out of retries and its QP fails, which
     * flushes the receive it waits on. The error used to be that flush ("receive failed: Work
     * Request Flushed Error (5) for message 0"); it now names the SEND's failure and what it means.
     */
    @Test
    void aFlushedReceiveNamesTheFailureThatFlushedIt() throws Exception {
        PerfPair.Result r = runWith("loss=100%,seed=1", "send_lat", "-n", "20", "--timeout-ms", "3000");
        assertThat(r.client().code()).as(r.toString()).isEqualTo(1);
        assertThat(r.client().errBesidesRetrying()).as(r.toString()).isEqualTo("jrdma perf: error: the receive of message 0 was"
                + " flushed (Work Request Flushed Error (5)): the QP had failed with transport retry counter exceeded (12) for its"
                + " WR 0: the peer stopped acknowledging — it ended, was killed or stopped, or the path to it is down (EIO)\n");
    }

    /** A bandwidth sender sees its own failure first; it says what it means. */
    @Test
    void aSenderWhoseRetriesRunOutSaysThePeerStoppedAcknowledging() throws Exception {
        PerfPair.Result r = runWith("loss=100%,seed=1", "write_bw", "-n", "20", "--timeout-ms", "3000");
        assertThat(r.client().code()).as(r.toString()).isEqualTo(1);
        assertThat(r.client().errBesidesRetrying()).as(r.toString()).startsWith("jrdma perf: error: the RDMA_WRITE of iteration ")
                .endsWith(" failed: transport retry counter exceeded (12): the peer stopped acknowledging — it ended, was killed"
                        + " or stopped, or the path to it is down (EIO)\n");
        assertThat(r.server().code()).as(r.toString()).isEqualTo(1); // its client went away
    }
}
