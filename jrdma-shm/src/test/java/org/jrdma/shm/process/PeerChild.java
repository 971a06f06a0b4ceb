package org.jrdma.shm.process;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * The child process of {@code ShmProcessesTest}: prints its end, connects to the parent's,
 * and then obeys commands from stdin — {@code sum OFFSET LENGTH} (waits for the parent's SEND,
 * answers the byte sum of what the parent wrote, and SENDs 8 bytes back), {@code halt} (dies at
 * once, as a crash would: no close, no cleanup).
 */
public final class PeerChild {
    private PeerChild() {
    }

    public static void main(String[] args) throws Exception {
        long buffer = Long.parseLong(args[0]);
        boolean providerMemory = Boolean.parseBoolean(args[1]);
        PeerEnd end = new PeerEnd(buffer, providerMemory);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // the last 64 bytes receive the parent's SEND; the 8 before them are what we send back
        long recvAt = buffer - 64;
        end.qp.postRecv(new RecvWorkRequest().wrId(1).sg(Sge.of(end.mr, recvAt, 64)));
        System.out.println(end.line());
        System.out.flush();
        end.connect(in.readLine());
        System.out.println("connected");
        System.out.flush();
        WorkCompletion[] wc = {new WorkCompletion()};
        for (String cmd = in.readLine(); cmd != null; cmd = in.readLine()) {
            String[] f = cmd.split(" ");
            switch (f[0]) {
                case "sum" -> {
                    while (end.cq.poll(wc) == 0) {
                        Thread.onSpinWait();
                    }
                    if (wc[0].status != WcStatus.SUCCESS) {
                        System.out.println("error " + wc[0]);
                        break;
                    }
                    long off = Long.parseLong(f[1]);
                    long len = Long.parseLong(f[2]);
                    long sum = 0;
                    for (long i = 0; i < len; i++) {
                        sum += end.memory.get(ValueLayout.JAVA_BYTE, off + i) & 0xff;
                    }
                    long message = end.memory.get(ValueLayout.JAVA_LONG_UNALIGNED, recvAt);
                    end.qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(end.mr, recvAt, 64)));
                    end.memory.set(ValueLayout.JAVA_LONG_UNALIGNED, recvAt - 8, message + 1);
                    end.qp.postSend(new SendWorkRequest().wrId(3).opcode(WrOpcode.SEND).flags(SendFlags.SIGNALED)
                            .sg(Sge.of(end.mr, recvAt - 8, 8)));
                    while (end.cq.poll(wc) == 0) {
                        Thread.onSpinWait();
                    }
                    System.out.println("sum " + sum + " " + wc[0].status);
                }
                case "halt" -> Runtime.getRuntime().halt(3);
                default -> System.out.println("unknown " + cmd);
            }
            System.out.flush();
        }
        end.close();
    }
}
