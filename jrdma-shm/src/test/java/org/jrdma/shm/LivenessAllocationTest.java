package org.jrdma.shm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.jrdma.shm.process.PeerChild;
import org.jrdma.testkit.Await;
import org.jrdma.testkit.ChildJvm;
import org.jrdma.testkit.RcAttrs;
import org.jrdma.verbs.AhAttr;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QueuePair;
import org.junit.jupiter.api.Test;

/**
 * The progress thread's liveness check of a peer in another process (a pidfd poll every
 * {@link Progress#LIVENESS_NANOS}) allocates nothing: perf's 0 B/op counts every thread.
 */
class LivenessAllocationTest {
    @Test
    void checkingALivePeerAllocatesNothing() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.classPath(PeerChild.class), PeerChild.class.getName(), "65536", "true")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (Context ctx = new ShmProvider().devices().getFirst().open()) {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter in = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8);
            CompletionQueue cq = ctx.createCq(16, null);
            QueuePair qp = ctx.allocPd().createQp(new QpInitAttr().cq(cq));
            qp.modify(RcAttrs.init(1, RcAttrs.ACCESS));
            String[] peer = out.readLine().split(" ");
            qp.modify(RcAttrs.rtr(AhAttr.roce(Gid.fromHex(peer[0]), 0, 1), Mtu.MTU_4096, Integer.parseInt(peer[1]), 0));
            qp.modify(RcAttrs.rts(0));
            in.println(ctx.queryGid(1, 0).toHex() + " " + qp.qpNum() + " 0 0");
            assertThat(out.readLine()).isEqualTo("connected");

            Progress progress = ((ShmContext) ctx).node.progress;
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long id = progress.threadId();
            // warm: the first passes link the pidfd poll
            long warm = progress.livenessPasses + 5;
            Await.until(() -> progress.livenessPasses >= warm, Duration.ofSeconds(30), "5 liveness passes");
            long before = mx.getThreadAllocatedBytes(id);
            long passes = progress.livenessPasses;
            Await.until(() -> progress.livenessPasses >= passes + 20, Duration.ofSeconds(60), "20 more liveness passes");
            long bytes = mx.getThreadAllocatedBytes(id) - before;
            assertThat(bytes).as("bytes the progress thread allocated over 20 liveness checks of a live peer").isZero();
            assertThat(qp.state()).as("the peer is alive: the QP stays up").hasToString("RTS");
        } finally {
            child.destroyForcibly();
        }
    }
}
