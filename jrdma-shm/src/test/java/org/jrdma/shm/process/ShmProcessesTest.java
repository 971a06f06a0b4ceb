package org.jrdma.shm.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jrdma.testkit.Await;
import org.jrdma.testkit.ChildJvm;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two processes: this one and a child JVM, each with its own shm node. The child's memory is
 * the provider's shared memory (a peer maps it) or an ordinary arena's (reached by cross-memory
 * attach); either way WRITE, READ and SEND move the bytes, and the peer's death ends in error
 * completions here within a bounded time, leaving no file behind.
 */
class ShmProcessesTest {
    private static final long BUFFER = 1 << 20;
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @ParameterizedTest(name = "provider memory: {0}")
    @ValueSource(booleans = {true, false})
    void writeReadSendAcrossProcessesAndThePeersDeathFlushesUs(boolean providerMemory) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                ChildJvm.classPath(PeerChild.class), PeerChild.class.getName(), Long.toString(BUFFER),
                Boolean.toString(providerMemory)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (PeerEnd me = new PeerEnd(BUFFER, true)) {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            PrintWriter in = new PrintWriter(child.getOutputStream(), true, StandardCharsets.UTF_8);
            String[] peer = out.readLine().split(" ");
            long peerAddr = Long.parseLong(peer[2]);
            int peerRkey = Integer.parseInt(peer[3]);
            me.connect(String.join(" ", peer));
            in.println(me.line());
            assertThat(out.readLine()).isEqualTo("connected");

            // WRITE 64 KiB of seeded bytes at offset 4096 of the child's memory, then SEND 8 bytes
            int len = 64 * 1024;
            MemorySegment src = me.memory.asSlice(0, len);
            SplittableRandom random = new SplittableRandom(18);
            long sum = 0;
            for (int i = 0; i < len; i++) {
                byte b = (byte) random.nextInt(256);
                src.set(ValueLayout.JAVA_BYTE, i, b);
                sum += b & 0xff;
            }
            long msgAt = BUFFER - 128;
            me.memory.set(ValueLayout.JAVA_LONG_UNALIGNED, msgAt, 41L);
            me.qp.postRecv(new RecvWorkRequest().wrId(10).sg(Sge.of(me.mr, BUFFER - 64, 64)));
            me.qp.postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.RDMA_WRITE).sg(Sge.of(me.mr, 0, len))
                    .rdma(peerAddr + 4096, peerRkey));
            in.println("sum 4096 " + len);
            me.qp.postSend(new SendWorkRequest().wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(me.mr, msgAt, 8)));
            WorkCompletion sent = poll(me, "the SEND's completion");
            assertThat(sent.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(out.readLine()).as("the child's sum of what it received").isEqualTo("sum " + sum + " SUCCESS");
            WorkCompletion back = poll(me, "the child's SEND");
            assertThat(back.opcode).isEqualTo(WcOpcode.RECV);
            assertThat(back.status).isEqualTo(WcStatus.SUCCESS);
            assertThat(me.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, BUFFER - 64)).as("41 + 1, from the child").isEqualTo(42L);

            // READ the bytes back from the child into another range and compare
            me.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.RDMA_READ).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(me.mr, 2L * len, len)).rdma(peerAddr + 4096, peerRkey));
            assertThat(poll(me, "the READ").status).isEqualTo(WcStatus.SUCCESS);
            assertThat(me.memory.asSlice(2L * len, len).mismatch(src)).as("READ returns what WRITE put").isEqualTo(-1);

            // an atomic needs the target mapped here: provider memory yes, an arena's no
            me.qp.postSend(new SendWorkRequest().wrId(4).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(me.mr, 3L * len, 8)).atomic(peerAddr + 8, peerRkey, 5, 0));
            WorkCompletion atomic = poll(me, "the FETCH_ADD");
            if (providerMemory) {
                assertThat(atomic.status).isEqualTo(WcStatus.SUCCESS);
            } else {
                assertThat(atomic.status).isEqualTo(WcStatus.REM_ACCESS_ERR);
                return;
            }

            // the child dies without closing anything: our posted receive completes in error, bounded
            me.qp.postRecv(new RecvWorkRequest().wrId(11).sg(Sge.of(me.mr, BUFFER - 64, 64)));
            long start = System.nanoTime();
            in.println("halt");
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            WorkCompletion flushed = poll(me, "the receive flushed after the peer died");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(flushed.wrId).isEqualTo(11);
            assertThat(flushed.status).isEqualTo(WcStatus.WR_FLUSH_ERR);
            assertThat(me.qp.state()).isEqualTo(QpState.ERR);
            assertThat(millis).as("noticed by the liveness check, not a hang").isLessThan(DEADLINE.toMillis());
            me.qp.postSend(new SendWorkRequest().wrId(5).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                    .sg(Sge.of(me.mr, msgAt, 8)));
            assertThat(poll(me, "a send after the death").status).isEqualTo(WcStatus.WR_FLUSH_ERR);
            // memfds have no path: the crashed child left nothing in /dev/shm (or anywhere)
            assertThat(listing(Path.of("/dev/shm"))).as("no shared files after a crash").noneMatch(f -> f.contains("jrdma-shm"));
        } finally {
            child.destroyForcibly();
        }
    }

    private static WorkCompletion poll(PeerEnd me, String what) {
        WorkCompletion[] wc = {new WorkCompletion()};
        Await.until(Thread::onSpinWait, () -> me.cq.poll(wc) == 1, DEADLINE, () -> what);
        return wc[0];
    }

    private static List<String> listing(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return new ArrayList<>(s.map(Path::toString).sorted().toList());
        }
    }
}
