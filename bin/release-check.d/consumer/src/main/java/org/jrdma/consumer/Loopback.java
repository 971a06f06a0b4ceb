package org.jrdma.consumer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jrdma.bootstrap.ConnInfo;
import org.jrdma.bootstrap.Exchange;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcConnector;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.RecvWorkRequest;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;

/**
 * bin/release-check's consumer: a program built only from the deployed jrdma artifacts. It lists
 * the devices (the provider on the runtime path, found by ServiceLoader), opens the soft one and
 * sends one message from one RC QP to another on it, connected by jrdma-bootstrap's
 * RcConnector through an in-process exchange.
 */
public final class Loopback {
    private static final String MESSAGE = "hello from a jrdma consumer";

    public static void main(String[] args) throws Exception {
        String where = Loopback.class.getModule().isNamed() ? "module path" : "class path";
        for (Device d : Verbs.deviceList()) {
            System.out.println("device " + d.name());
        }
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue sendCq = ctx.createCq(16, null);
            CompletionQueue recvCq = ctx.createCq(16, null);
            MemoryRegion out = pd.registerMemory(arena.allocate(256), AccessFlags.LOCAL_WRITE, arena);
            MemoryRegion in = pd.registerMemory(arena.allocate(256), AccessFlags.LOCAL_WRITE, arena);
            byte[] text = MESSAGE.getBytes(StandardCharsets.US_ASCII);
            MemorySegment.copy(text, 0, out.segment(), ValueLayout.JAVA_BYTE, 0, text.length);

            // the two sides' connection infos meet in memory instead of over TCP
            CompletableFuture<ConnInfo> senderInfo = new CompletableFuture<>();
            CompletableFuture<ConnInfo> receiverInfo = new CompletableFuture<>();
            Exchange senderSide = (local, events) -> {
                senderInfo.complete(local);
                return receiverInfo.join();
            };
            Exchange receiverSide = (local, events) -> {
                receiverInfo.complete(local);
                return senderInfo.join();
            };
            CompletableFuture<RcConnection> receiver = CompletableFuture.supplyAsync(() -> RcConnector.connect(pd,
                    receiverSide, RcOptions.defaults(recvCq)
                            .onInit(qp -> qp.postRecv(new RecvWorkRequest().wrId(2).sg(Sge.of(in))))));
            try (RcConnection sender = RcConnector.connect(pd, senderSide, RcOptions.defaults(sendCq));
                    RcConnection r = receiver.get(10, TimeUnit.SECONDS)) {
                sender.qp().postSend(new SendWorkRequest().wrId(1).opcode(WrOpcode.SEND)
                        .flags(SendFlags.SIGNALED).sg(Sge.of(out, 0, text.length)));
                WorkCompletion recv = poll(recvCq);
                WorkCompletion send = poll(sendCq);
                byte[] got = new byte[recv.byteLen];
                MemorySegment.copy(in.segment(), ValueLayout.JAVA_BYTE, 0, got, 0, got.length);
                System.out.println("opened " + ctx.device().name() + " on the " + where
                        + "; SEND " + send.status.str() + ", RECV " + recv.status.str() + " " + recv.byteLen
                        + " bytes: " + new String(got, StandardCharsets.US_ASCII));
            }
        }
    }

    private static WorkCompletion poll(CompletionQueue cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no completion within 10 s");
            }
            Thread.onSpinWait();
        }
        if (wc[0].status != WcStatus.SUCCESS) {
            throw new IllegalStateException(wc[0].status.str());
        }
        return wc[0];
    }
}
