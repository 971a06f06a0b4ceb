package org.jrdma.soft.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The native door: a UDP socket through libc. Everything here runs over loopback with ports
 * the kernel picks (bind port 0), so no test can clash with a soft device on 4791. Waits are
 * "until it arrives, or 10 s": no sleeps.
 */
class NativeDatagramsTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static InetAddress v4;

    @BeforeAll
    static void nativeAvailable() throws IOException {
        assumeTrue(NativeDatagrams.isAvailable(), () -> "native datagrams: " + NativeDatagrams.unavailableReason());
        v4 = InetAddress.getByName("127.0.0.1");
    }

    @Test
    void roundTripBetweenTwoNativeSocketsBothWays() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            assertNotEquals(0, a.localAddress().getPort());
            assertEquals(v4, a.localAddress().getAddress());
            roundTrip(a, b);
            roundTrip(b, a);
        }
    }

    /**
     * Two threads send at once through one socket (an impairment's held packets leave from the
     * device thread while an application thread runs a pass): every datagram arrives whole, with
     * its own length and bytes, none takes the other thread's header or iovec.
     */
    @Test
    void sendsFromTwoThreadsAtOnceArriveWhole() throws Exception {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); UdpDatagrams b = UdpDatagrams.bind(v4, 0)) {
            int perThread = 2000;
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
            Thread[] senders = new Thread[2];
            for (int t = 0; t < 2; t++) {
                int size = t == 0 ? 32 : 1044; // a READ request and a READ response, as the race was found
                byte fill = (byte) (t + 1);
                senders[t] = Thread.ofPlatform().start(() -> {
                    ByteBuffer p = ByteBuffer.allocateDirect(size);
                    try {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            p.clear();
                            while (p.hasRemaining()) {
                                p.put(fill);
                            }
                            p.flip();
                            while (!a.send(p, b.localAddress())) {
                                Thread.onSpinWait(); // the kernel's buffer is full: the receiver drains it
                            }
                        }
                    } catch (Throwable e) {
                        failed.compareAndSet(null, e);
                    }
                });
            }
            start.countDown();
            ByteBuffer in = ByteBuffer.allocateDirect(2048);
            int got = 0;
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (got < 2 * perThread && failed.get() == null) {
                in.clear();
                if (b.receive(in) == null) {
                    assertTrue(System.nanoTime() < deadline, "datagrams received in time: " + got);
                    Thread.onSpinWait();
                    continue;
                }
                in.flip();
                int len = in.remaining();
                assertTrue(len == 32 || len == 1044, "a datagram of one sender's size: " + len);
                byte expect = (byte) (len == 32 ? 1 : 2);
                for (int i = 0; i < len; i++) {
                    assertEquals(expect, in.get(i), "byte " + i + " of a " + len + "-byte datagram");
                }
                got++;
            }
            for (Thread t : senders) {
                t.join();
            }
            if (failed.get() != null) {
                throw new AssertionError("a sender failed", failed.get());
            }
            assertEquals(2 * perThread, got);
        }
    }

    @Test
    void roundTripBetweenNativeAndTheDatagramChannelPathBothWays() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); UdpDatagrams b = UdpDatagrams.bind(v4, 0)) {
            roundTrip(a, b);
            roundTrip(b, a);
        }
    }

    @Test
    void roundTripOverIpv6BothWays() throws IOException {
        InetAddress v6 = loopback6();
        try (NativeDatagrams a = NativeDatagrams.bind(v6, 0); NativeDatagrams b = NativeDatagrams.bind(v6, 0);
                UdpDatagrams c = UdpDatagrams.bind(v6, 0)) {
            assertEquals(v6, a.localAddress().getAddress());
            roundTrip(a, b);
            roundTrip(b, a);
            roundTrip(a, c);
            roundTrip(c, a);
        }
    }

    @Test
    void anIpv6SocketAcceptsUdpChecksumZeroAsRxeSendsIt() throws IOException {
        InetAddress v6 = loopback6();
        try (NativeDatagrams device = NativeDatagrams.bind(v6, 0); DatagramChannel rxe = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            rxe.bind(new InetSocketAddress(v6, 0));
            assertTrue(UdpChecksumOptions.set(rxe, UdpChecksumOptions.UDP_NO_CHECK6_TX));
            rxe.send(ByteBuffer.wrap(new byte[] {42, 43}), device.localAddress());
            ByteBuffer buf = ByteBuffer.allocateDirect(64);
            assertEquals(rxe.getLocalAddress(), receiveWithin(device, buf));
            assertEquals(2, buf.position());
        }
    }

    @Test
    void heapAndDirectBuffersBothWorkAndPositionsMoveLikeTheJdks() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            ByteBuffer heap = ByteBuffer.wrap(new byte[] {0, 0, 1, 2, 3, 0});
            heap.position(2).limit(5);
            assertTrue(a.send(heap, b.localAddress()));
            assertEquals(5, heap.position(), "send consumes the remaining bytes");
            ByteBuffer in = ByteBuffer.allocate(16);
            in.position(4);
            receiveWithin(b, in);
            assertEquals(7, in.position());
            assertArrayEquals(new byte[] {1, 2, 3}, java.util.Arrays.copyOfRange(in.array(), 4, 7));

            ByteBuffer direct = ByteBuffer.allocateDirect(8).put(new byte[] {9, 8, 7, 6}).flip();
            assertTrue(a.send(direct, b.localAddress()));
            ByteBuffer din = ByteBuffer.allocateDirect(16);
            receiveWithin(b, din);
            assertEquals(4, din.position());
            assertEquals(9, din.get(0));
            assertEquals(6, din.get(3));
        }
    }

    @Test
    void aLongerDatagramThanTheBufferIsCutToTheBufferLikeTheJdk() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            a.send(ByteBuffer.wrap(new byte[100]), b.localAddress());
            ByteBuffer small = ByteBuffer.allocateDirect(10);
            receiveWithin(b, small);
            assertEquals(10, small.position());
        }
    }

    @Test
    void receiveReturnsTheSameSenderObjectWhileTheSenderDoesNotChange() throws IOException {
        try (NativeDatagrams rx = NativeDatagrams.bind(v4, 0); NativeDatagrams one = NativeDatagrams.bind(v4, 0);
                NativeDatagrams two = NativeDatagrams.bind(v4, 0)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(64);
            one.send(ByteBuffer.wrap(new byte[] {1}), rx.localAddress());
            one.send(ByteBuffer.wrap(new byte[] {2}), rx.localAddress());
            two.send(ByteBuffer.wrap(new byte[] {3}), rx.localAddress());
            one.send(ByteBuffer.wrap(new byte[] {4}), rx.localAddress());
            InetSocketAddress first = receiveWithin(rx, buf.clear());
            InetSocketAddress second = receiveWithin(rx, buf.clear());
            InetSocketAddress third = receiveWithin(rx, buf.clear());
            InetSocketAddress fourth = receiveWithin(rx, buf.clear());
            assertEquals(one.localAddress(), first);
            assertSame(first, second, "a repeated sender is the cached object");
            assertEquals(two.localAddress(), third);
            assertNotSame(first, third);
            assertEquals(one.localAddress(), fourth);
            assertNotSame(third, fourth, "a changed sender is a new object");
        }
    }

    @Test
    void receiveOnAnEmptySocketReturnsNull() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(64);
            assertNull(a.receive(buf));
            assertEquals(0, buf.position());
            assertNull(a.receive(ByteBuffer.allocate(64)));
            assertEquals(0, a.receiveBatch(new ByteBuffer[] {buf}, new InetSocketAddress[1], null, 1));
        }
    }

    @Test
    void aTakenAddressAndPortIsABindExceptionForBothPaths() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0)) {
            int port = a.localAddress().getPort();
            BindException e = assertThrows(BindException.class, () -> NativeDatagrams.bind(v4, port));
            assertTrue(e.getMessage().contains("Address already in use"), e.getMessage());
            assertThrows(BindException.class, () -> UdpDatagrams.bind(v4, port));
        }
        try (UdpDatagrams u = UdpDatagrams.bind(v4, 0)) {
            assertThrows(BindException.class, () -> NativeDatagrams.bind(v4, u.localAddress().getPort()));
        }
    }

    @Test
    void aForeignAddressIsABindExceptionWithTheKernelsWords() {
        // 192.0.2.1 is TEST-NET-1: documentation only, never a local address
        BindException e = assertThrows(BindException.class,
                () -> NativeDatagrams.bind(InetAddress.getByName("192.0.2.1"), 0));
        assertTrue(e.getMessage().contains("Cannot assign requested address"), e.getMessage());
    }

    @Test
    void awaitReturnsWhenADatagramArrives() throws Exception {
        try (NativeDatagrams rx = NativeDatagrams.bind(v4, 0); NativeDatagrams tx = NativeDatagrams.bind(v4, 0)) {
            Thread waiter = awaitInThread(rx);
            tx.send(ByteBuffer.wrap(new byte[] {1}), rx.localAddress());
            waiter.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
            assertFalse(waiter.isAlive(), "await(60 s) still waiting 10 s after a datagram arrived");
            assertNotNull(rx.receive(ByteBuffer.allocateDirect(8)));
        }
    }

    @Test
    void awaitReturnsWhenWakeupIsCalledFromAnotherThread() throws Exception {
        try (NativeDatagrams rx = NativeDatagrams.bind(v4, 0)) {
            Thread waiter = awaitInThread(rx);
            rx.wakeup();
            waiter.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
            assertFalse(waiter.isAlive(), "await(60 s) still waiting 10 s after wakeup()");
            assertNull(rx.receive(ByteBuffer.allocateDirect(8)), "a wake-up is not a datagram");
        }
    }

    @Test
    void aWakeupBeforeAwaitIsNotLost() throws Exception {
        // the engine's Dekker handshake: a post may wake the socket just before the engine parks
        try (NativeDatagrams rx = NativeDatagrams.bind(v4, 0)) {
            rx.wakeup();
            Thread waiter = awaitInThread(rx);
            waiter.join(TimeUnit.NANOSECONDS.toMillis(DEADLINE_NANOS));
            assertFalse(waiter.isAlive(), "a wake-up made before await was lost");
        }
    }

    @Test
    void sendSegmentedArrivesAtAPlainReceiverAsSeparateDatagrams() throws IOException {
        try (NativeDatagrams tx = NativeDatagrams.bind(v4, 0); UdpDatagrams plain = UdpDatagrams.bind(v4, 0);
                NativeDatagrams nativeRx = NativeDatagrams.bind(v4, 0)) {
            byte[] payload = pattern(5 * 1000 + 300);
            for (Datagrams rx : new Datagrams[] {plain, nativeRx}) {
                ByteBuffer out = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
                assertTrue(tx.sendSegmented(out, 1000, rx.localAddress()));
                assertEquals(payload.length, out.position());
                for (int i = 0; i < 6; i++) {
                    ByteBuffer in = ByteBuffer.allocate(65536);
                    assertEquals(tx.localAddress(), receiveWithin(rx, in));
                    int expected = i < 5 ? 1000 : 300;
                    assertEquals(expected, in.position(), "segment " + i + " at " + rx);
                    assertArrayEquals(java.util.Arrays.copyOfRange(payload, i * 1000, i * 1000 + expected),
                            java.util.Arrays.copyOf(in.array(), expected), "segment " + i);
                }
                assertNull(rx.receive(ByteBuffer.allocate(65536)), "exactly 6 datagrams");
            }
        }
    }

    @Test
    void withGroASegmentedSendOverLoopbackArrivesCoalescedWithItsSegmentSize() throws IOException {
        try (NativeDatagrams tx = NativeDatagrams.bind(v4, 0); NativeDatagrams rx = NativeDatagrams.bind(v4, 0)) {
            rx.enableGro();
            byte[] payload = pattern(5 * 1000 + 300);
            assertTrue(tx.sendSegmented(ByteBuffer.wrap(payload), 1000, rx.localAddress()));
            ByteBuffer in = ByteBuffer.allocateDirect(65536);
            assertEquals(tx.localAddress(), receiveWithin(rx, in));
            // measured: loopback hands the GSO packet to a GRO socket whole
            assertEquals(payload.length, in.position(), "one read holds all six segments");
            assertEquals(1000, rx.lastSegmentSize(), "the UDP_GRO control message carries the segment size");
            byte[] got = new byte[payload.length];
            in.flip().get(got);
            assertArrayEquals(payload, got);
            assertNull(rx.receive(ByteBuffer.allocateDirect(65536)));

            // a datagram sent on its own is not coalesced and carries no segment size
            tx.send(ByteBuffer.wrap(new byte[] {5, 6, 7}), rx.localAddress());
            ByteBuffer single = ByteBuffer.allocateDirect(65536);
            receiveWithin(rx, single);
            assertEquals(3, single.position());
            assertEquals(0, rx.lastSegmentSize());
        }
    }

    @Test
    void withGroReceiveBatchReportsEachReadsSegmentSize() throws IOException {
        try (NativeDatagrams tx = NativeDatagrams.bind(v4, 0); NativeDatagrams rx = NativeDatagrams.bind(v4, 0)) {
            rx.enableGro();
            tx.sendSegmented(ByteBuffer.wrap(pattern(3 * 500)), 500, rx.localAddress());
            tx.send(ByteBuffer.wrap(new byte[] {1, 2}), rx.localAddress());
            ByteBuffer[] bufs = {ByteBuffer.allocateDirect(65536), ByteBuffer.allocateDirect(65536)};
            InetSocketAddress[] from = new InetSocketAddress[2];
            int[] sizes = new int[2];
            awaitReadable(rx);
            assertEquals(2, rx.receiveBatch(bufs, from, sizes, 2));
            assertEquals(1500, bufs[0].position());
            assertEquals(500, sizes[0]);
            assertEquals(2, bufs[1].position());
            assertEquals(0, sizes[1]);
            assertEquals(tx.localAddress(), from[0]);
            assertSame(from[0], from[1], "one sender: the cached object");
        }
    }

    @Test
    void sendBatchReachesTwoReceiversInOneCall() throws IOException {
        try (NativeDatagrams tx = NativeDatagrams.bind(v4, 0); NativeDatagrams r1 = NativeDatagrams.bind(v4, 0);
                UdpDatagrams r2 = UdpDatagrams.bind(v4, 0)) {
            ByteBuffer[] packets = new ByteBuffer[4];
            InetSocketAddress[] to = new InetSocketAddress[4];
            for (int i = 0; i < 4; i++) {
                packets[i] = ByteBuffer.allocateDirect(16).put((byte) i).put((byte) (10 * i)).flip();
                to[i] = i % 2 == 0 ? r1.localAddress() : r2.localAddress();
            }
            assertEquals(4, tx.sendBatch(packets, to, 4));
            for (ByteBuffer p : packets) {
                assertFalse(p.hasRemaining(), "a sent packet is consumed");
            }
            for (int i = 0; i < 4; i++) {
                Datagrams rx = i % 2 == 0 ? r1 : r2;
                ByteBuffer in = ByteBuffer.allocate(16);
                assertEquals(tx.localAddress(), receiveWithin(rx, in));
                assertEquals(2, in.position());
                assertEquals(i, in.get(0));
                assertEquals(10 * i, in.get(1));
            }
            assertNull(r1.receive(ByteBuffer.allocate(16)));
            assertNull(r2.receive(ByteBuffer.allocate(16)));
        }
    }

    @Test
    void anEngineBatchRunLeavesAsSegmentsAndALaterSendBatchIsNotSegmented() throws IOException {
        try (NativeDatagrams tx = NativeDatagrams.bind(v4, 0); UdpDatagrams rx = UdpDatagrams.bind(v4, 0)) {
            TxBatch batch = new TxBatch(1 << 16, tx.segments());
            for (int i = 0; i < 3; i++) {
                batch.buffer().put(batch.tail(), (byte) i);
                assertEquals(i, batch.add(RoceEndpoint.of(rx.localAddress()), 100), "the IPv4 ID of segment " + i);
            }
            tx.send(batch);
            for (int i = 0; i < 3; i++) {
                assertEquals(TxBatch.Result.SENT, batch.result(i));
                ByteBuffer in = ByteBuffer.allocate(400);
                assertEquals(tx.localAddress(), receiveWithin(rx, in));
                assertEquals(100, in.position(), "segment " + i + " arrives as its own datagram");
                assertEquals(i, in.get(0));
            }
            // the same message slot again, without UDP_SEGMENT: no control message may be left over
            ByteBuffer whole = ByteBuffer.allocateDirect(300);
            whole.put(0, (byte) 7).limit(300);
            assertEquals(1, tx.sendBatch(new ByteBuffer[] {whole}, new InetSocketAddress[] {rx.localAddress()}, 1));
            ByteBuffer in = ByteBuffer.allocate(400);
            assertEquals(tx.localAddress(), receiveWithin(rx, in));
            assertEquals(300, in.position(), "one 300-byte datagram, not three segments of 100");
            assertNull(rx.receive(ByteBuffer.allocate(400)));
        }
    }

    @Test
    void receiveBatchTakesSeveralDatagramsInOneCall() throws IOException {
        try (NativeDatagrams rx = NativeDatagrams.bind(v4, 0); NativeDatagrams a = NativeDatagrams.bind(v4, 0);
                NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            int k = 5;
            for (int i = 0; i < k; i++) {
                (i == 3 ? b : a).send(ByteBuffer.wrap(new byte[] {(byte) i, 0, (byte) i}), rx.localAddress());
            }
            ByteBuffer[] bufs = new ByteBuffer[8];
            for (int i = 0; i < bufs.length; i++) {
                bufs[i] = ByteBuffer.allocateDirect(32);
            }
            InetSocketAddress[] from = new InetSocketAddress[8];
            // loopback delivers into the receiver's queue before the sender's sendmsg returns
            awaitReadable(rx);
            assertEquals(k, rx.receiveBatch(bufs, from, null, 8));
            for (int i = 0; i < k; i++) {
                assertEquals(3, bufs[i].position());
                assertEquals(i, bufs[i].get(0));
                assertEquals(i == 3 ? b.localAddress() : a.localAddress(), from[i]);
            }
            assertSame(from[0], from[1], "a repeated sender is one object across slots");
            assertNotSame(from[2], from[3], "a changed sender is a new object");
            assertEquals(0, rx.receiveBatch(bufs, from, null, 8));
        }
    }

    @Test
    void aBatchTakesDirectBuffersOnly() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0)) {
            assertThrows(IllegalArgumentException.class, () -> a.sendBatch(new ByteBuffer[] {ByteBuffer.allocate(4)},
                    new InetSocketAddress[] {a.localAddress()}, 1));
            assertThrows(IllegalArgumentException.class, () -> a.sendBatch(new ByteBuffer[0], new InetSocketAddress[0], 1));
        }
    }

    @Test
    void sendReceiveAndBatchesAllocateNothingPerPacket() throws IOException {
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            ByteBuffer out = ByteBuffer.allocateDirect(1024);
            ByteBuffer heapOut = ByteBuffer.allocate(1024);
            ByteBuffer in = ByteBuffer.allocateDirect(2048);
            ByteBuffer[] batch = {ByteBuffer.allocateDirect(64), ByteBuffer.allocateDirect(64)};
            ByteBuffer[] rxBatch = {ByteBuffer.allocateDirect(64), ByteBuffer.allocateDirect(64)};
            InetSocketAddress[] to = {b.localAddress(), b.localAddress()};
            InetSocketAddress[] from = new InetSocketAddress[2];
            InetSocketAddress dest = b.localAddress();
            // equal, not the same object: the engine's QPs each hold their own for one peer
            InetSocketAddress sameDest = new InetSocketAddress(dest.getAddress(), dest.getPort());
            // loopback delivers before sendmsg returns, so a receive right after a send finds the
            // datagram; a spin with a deadline keeps await (poll) out of the measured calls
            IoRound round = () -> {
                out.clear();
                a.send(out, dest);
                heapOut.clear();
                a.send(heapOut, sameDest);
                receiveSpinning(b, in, 2);
                batch[0].clear().limit(16);
                batch[1].clear().limit(16);
                a.sendBatch(batch, to, 2);
                rxBatch[0].clear();
                rxBatch[1].clear();
                int got = 0;
                long deadline = System.nanoTime() + DEADLINE_NANOS;
                while (got == 0 && System.nanoTime() < deadline) {
                    got = b.receiveBatch(rxBatch, from, null, 2);
                }
                receiveSpinning(b, in, 2 - got);
            };
            for (int i = 0; i < 20_000; i++) {
                round.run();
            }
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            long id = Thread.currentThread().threadId();
            long before = mx.getThreadAllocatedBytes(id);
            int rounds = 20_000;
            for (int i = 0; i < rounds; i++) {
                round.run();
            }
            long perRound = (mx.getThreadAllocatedBytes(id) - before) / rounds;
            assertTrue(perRound < 16, "bytes allocated per round (2 sends, 2 receives, a batch of 2 each way): " + perRound);
        }
    }

    /** Takes {@code n} datagrams, trying for at most 10 s (no allocation: for the measured loop). */
    private static void receiveSpinning(NativeDatagrams d, ByteBuffer buf, int n) throws IOException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        for (int got = 0; got < n && System.nanoTime() < deadline; ) {
            if (d.receive(buf.clear()) != null) {
                got++;
            }
        }
    }

    @FunctionalInterface
    private interface IoRound {
        void run() throws IOException;
    }

    @Test
    void closeTwiceIsHarmlessAndAClosedSocketSaysSo() throws IOException {
        NativeDatagrams a = NativeDatagrams.bind(v4, 0);
        InetSocketAddress where = a.localAddress();
        a.close();
        a.close();
        a.wakeup(); // harmless after close too
        IOException send = assertThrows(IOException.class, () -> a.send(ByteBuffer.wrap(new byte[1]), where));
        assertTrue(send.getMessage().contains("closed"), send.getMessage());
        assertThrows(IOException.class, () -> a.receive(ByteBuffer.allocateDirect(8)));
        assertThrows(IOException.class, () -> a.await(1_000_000));
        assertThrows(IOException.class, () -> a.sendSegmented(ByteBuffer.allocate(8), 4, where));
        // the port is free again
        NativeDatagrams.bind(v4, where.getPort()).close();
    }

    @Test
    void aSendTheKernelRefusesIsAnIOExceptionNamingTheCall() throws IOException {
        InetAddress v6 = loopback6();
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0)) {
            IOException e = assertThrows(IOException.class,
                    () -> a.send(ByteBuffer.wrap(new byte[1]), new InetSocketAddress(v6, 9)));
            assertTrue(e.getMessage().contains("IPv6"), e.getMessage());
        }
        try (NativeDatagrams a = NativeDatagrams.bind(v4, 0); NativeDatagrams b = NativeDatagrams.bind(v4, 0)) {
            // 650 segments: more than the kernel's UDP_MAX_SEGMENTS
            IOException e = assertThrows(IOException.class,
                    () -> a.sendSegmented(ByteBuffer.allocateDirect(65_000), 100, b.localAddress()));
            assertTrue(e.getMessage().startsWith("sendmsg (UDP_SEGMENT 100)"), e.getMessage());
            assertTrue(e.getMessage().contains("errno"), e.getMessage());
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void roundTrip(Datagrams from, Datagrams to) throws IOException {
        byte[] payload = pattern(1200);
        assertTrue(from.send(ByteBuffer.wrap(payload), to.localAddress()));
        ByteBuffer in = ByteBuffer.allocateDirect(4096);
        assertEquals(from.localAddress(), receiveWithin(to, in));
        byte[] got = new byte[in.flip().remaining()];
        in.get(got);
        assertArrayEquals(payload, got, from + " -> " + to);
    }

    private static InetSocketAddress receiveWithin(Datagrams d, ByteBuffer buf) throws IOException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (true) {
            InetSocketAddress from = d.receive(buf);
            if (from != null) {
                return from;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("nothing arrived at " + d + " within 10 s");
            }
            d.await(left);
        }
    }

    /** Waits (poll, at most 10 s) until a datagram is waiting, without taking it. */
    private static void awaitReadable(NativeDatagrams d) throws IOException {
        d.await(DEADLINE_NANOS);
    }

    private static Thread awaitInThread(Datagrams d) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                d.await(TimeUnit.SECONDS.toNanos(60));
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        return t;
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i >> 8));
        }
        return b;
    }

    private static InetAddress loopback6() throws IOException {
        InetAddress v6 = InetAddress.getByName("::1");
        try (DatagramChannel probe = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            probe.bind(new InetSocketAddress(v6, 0));
        } catch (IOException e) {
            assumeTrue(false, "no IPv6 loopback: " + e);
        }
        return v6;
    }
}
