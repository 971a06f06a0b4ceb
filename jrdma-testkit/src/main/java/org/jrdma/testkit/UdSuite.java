package org.jrdma.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jrdma.testkit.VerbsAssertions.assertFails;
import static org.jrdma.testkit.VerbsAssertions.assertNames;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.stream.Stream;
import org.jrdma.testkit.Loopback.Endpoint;
import org.jrdma.testkit.Loopback.Options;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.QpAttr;
import org.jrdma.verbs.QpInitAttr;
import org.jrdma.verbs.QpState;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.QueuePair;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;
import org.jrdma.verbs.WorkCompletion;
import org.jrdma.verbs.WrOpcode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * UD queue pairs (ROCEV2-FACTS §3.3, §3.7, §4.1 step 5, §4.2): RESET → INIT with a Q_Key,
 * → RTR with nothing, → RTS with the SQ PSN; an address handle made from the peer's GID. A
 * datagram lands after the 40-byte GRH area (IPv4: 20 zero bytes and the packet's IPv4 header;
 * IPv6: its IPv6 header), byte_len counts those 40 bytes, src_qp names the sender and the GRH
 * flag is set. A wrong Q_Key is dropped without a trace; a datagram longer than the MTU is not
 * delivered. UD has no RNR and no retries: every receive is posted before the datagram.
 */
public abstract class UdSuite extends RdmaSuiteBase {
    /** For a provider's subclass, which supplies the fixture. */
    public UdSuite() {
    }

    private static final int GRH_BYTES = 40;
    private static final ValueLayout.OfShort BE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Endpoint a;
    private Endpoint b;
    private int mtu;

    /** Skips unless the provider has {@link Feature#UD}; brings a UD pair to RTS with address handles. */
    @BeforeEach
    protected final void connectUdPair() {
        assumeSupported(Feature.UD);
        mtu = context.queryPort(fx.port()).activeMtu().min(peerContext().queryPort(fx.port()).activeMtu()).bytes();
        Loopback lb = loopback(Options.defaults().withQpType(QpType.UD).withBufferBytes(4 * mtu + 4096));
        a = lb.a();
        b = lb.b();
    }

    @Test
    void udPairReachesRtsWithItsQkeyAndAnAddressHandleToThePeer() {
        QpAttr q = a.qp.query();
        assertThat(q.qpState()).isEqualTo(QpState.RTS);
        assertThat(q.qkey()).as("Q_Key").isEqualTo(Loopback.UD_QKEY);
        assertThat(a.qp.qpType()).isEqualTo(QpType.UD);
        assertThat(a.ah().attr().dgid).as("the AH's destination GID").isEqualTo(b.gid);
        assertThat(a.ah().attr().isGlobal).as("the AH carries a GRH (RoCE)").isTrue();
    }

    /** RESET → INIT of a UD QP requires QKEY and takes no ACCESS_FLAGS (§3.3). */
    @Test
    void udInitNeedsAQkeyAndRefusesAccessFlags() {
        QueuePair qp = track(a.pd.createQp(new QpInitAttr().qpType(QpType.UD).cq(a.sendCq)));
        VerbsException e = assertFails(Errno.EINVAL,
                () -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(fx.port())));
        assertNames(e, "QKEY");
        e = assertFails(Errno.EINVAL, () -> qp.modify(new QpAttr().state(QpState.INIT).pkeyIndex(0).port(fx.port())
                .qkey(1).accessFlags(RcAttrs.ACCESS)));
        assertNames(e, "ACCESS_FLAGS");
        assertState(qp, QpState.RESET, "the UD QP");
    }

    static Stream<Arguments> datagrams() {
        return Stream.of(WrOpcode.SEND, WrOpcode.SEND_WITH_IMM).flatMap(op -> Stream.of(0, 1, 3, 100, -1)
                .map(size -> Arguments.of(op, size)));
    }

    /** Size −1 stands for a full MTU. */
    @ParameterizedTest(name = "{0} of {1} bytes")
    @MethodSource("datagrams")
    void datagramLandsAfterTheGrhAreaWithSrcQpAndByteLenCountingIt(WrOpcode op, int sizeOrMtu) {
        int size = sizeOrMtu < 0 ? mtu : sizeOrMtu;
        MemorySegment payload = a.sendMr.segment().asSlice(0, size);
        Payload.fill(payload, 0xDA7A + size);
        MemorySegment in = b.recvMr.segment();
        in.fill(CANARY);
        b.qp.postRecv(recv(7, Sge.of(b.recvMr, 0, GRH_BYTES + size + GUARD)));
        SendWorkRequest wr = new SendWorkRequest().wrId(8).opcode(op).flags(SendFlags.SIGNALED).imm(IMM)
                .ud(a.ah(), b.qp.qpNum(), Loopback.UD_QKEY);
        if (size > 0) {
            wr.sg(Sge.of(a.sendMr, 0, size));
        }
        a.qp.postSend(wr);
        WorkCompletion s = awaitCompletion(a.sendCq, "the datagram's send");
        assertWc(s, 8, WcStatus.SUCCESS, a.qp);
        assertThat(s.opcode).isEqualTo(WcOpcode.SEND);

        WorkCompletion r = awaitCompletion(b.recvCq, "the datagram");
        assertWc(r, 7, WcStatus.SUCCESS, b.qp);
        assertThat(r.opcode).as("opcode of %s", r).isEqualTo(WcOpcode.RECV);
        assertThat(r.byteLen).as("byte_len of %s: the GRH area and the payload", r).isEqualTo(GRH_BYTES + size);
        assertThat(r.srcQp).as("src_qp of %s", r).isEqualTo(a.qp.qpNum());
        assertThat(r.wcFlags & WcFlags.GRH).as("GRH flag of %s", r).isEqualTo(WcFlags.GRH);
        assertThat(r.wcFlags & WcFlags.WITH_IMM).as("WITH_IMM of %s", r).isEqualTo(op.hasImmediate() ? WcFlags.WITH_IMM : 0);
        if (op.hasImmediate()) {
            assertThat(r.immData).as("imm_data of %s", r).isEqualTo(IMM);
        }
        assertGrhArea(in.asSlice(0, GRH_BYTES), a.gid, b.gid, size + (op.hasImmediate() ? 4 : 0));
        Payload.assertSameBytes(in.asSlice(GRH_BYTES, size), payload, "the datagram's payload");
        Payload.assertFilledWith(in.asSlice(GRH_BYTES + size), CANARY, "the receive buffer past the datagram");
    }

    /** §2.1: a UD packet with the wrong Q_Key is dropped; the receive it would have used stays posted. */
    @Test
    void datagramWithTheWrongQkeyIsDroppedAndConsumesNoReceive() {
        b.qp.postRecv(recv(1, Sge.of(b.recvMr, 0, GRH_BYTES + 64)));
        Payload.fill(a.sendMr.segment().asSlice(0, 64), 3);
        a.qp.postSend(send(10, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, 64)).ud(a.ah(), b.qp.qpNum(),
                Loopback.UD_QKEY ^ 0x100));
        assertWc(awaitCompletion(a.sendCq, "the send with the wrong Q_Key (UD sends complete locally)"), 10,
                WcStatus.SUCCESS, a.qp);
        assertNoCompletion(b.recvCq, "B's receive CQ: a datagram with the wrong Q_Key");

        a.qp.postSend(send(11, SendFlags.SIGNALED, Sge.of(a.sendMr, 64, 64)).ud(a.ah(), b.qp.qpNum(),
                Loopback.UD_QKEY));
        assertWc(awaitCompletion(a.sendCq, "the send with the right Q_Key"), 11, WcStatus.SUCCESS, a.qp);
        WorkCompletion r = awaitCompletion(b.recvCq, "the datagram with the right Q_Key");
        assertWc(r, 1, WcStatus.SUCCESS, b.qp);
        Payload.assertSameBytes(b.recvMr.segment().asSlice(GRH_BYTES, 64), a.sendMr.segment().asSlice(64, 64),
                "the second datagram in the first receive");
    }

    /**
     * A UD message must fit one packet (§4.1 step 5). rxe completes a longer one as a success
     * without sending it; jrdma follows the spec: refused at post (EINVAL) or completed with an
     * error (LOC_LEN_ERR) — never delivered.
     */
    @Test
    void datagramLongerThanTheMtuIsNotDeliveredAndFailsAtPostOrCompletion() {
        assumeSupported(Feature.UD_LENGTH_CHECKED);
        b.qp.postRecv(recv(1, Sge.of(b.recvMr, 0, GRH_BYTES + mtu + 1)));
        SendWorkRequest wr = send(20, SendFlags.SIGNALED, Sge.of(a.sendMr, 0, mtu + 1))
                .ud(a.ah(), b.qp.qpNum(), Loopback.UD_QKEY);
        VerbsException refused = null;
        try {
            a.qp.postSend(wr);
        } catch (VerbsException e) {
            refused = e;
        }
        if (refused != null) {
            assertThat(refused.errno()).as("errno of \"%s\"", refused.getMessage()).isEqualTo(Errno.EINVAL);
        } else {
            WorkCompletion s = awaitCompletion(a.sendCq, "the oversized datagram's send");
            assertThat(s.wrId).isEqualTo(20);
            assertThat(s.status).as("status of %s (LOC_LEN_ERR chosen)", s).isNotEqualTo(WcStatus.SUCCESS);
        }
        assertNoCompletion(b.recvCq, "B's receive CQ: an oversized datagram");
    }

    /** 64 datagrams (or a full RQ) in a row arrive in order on loopback, each in its own receive. */
    @Test
    void manyDatagramsArriveInOrder() {
        int n = Math.min(64, Math.min(b.qp.cap().maxRecvWr(), a.qp.cap().maxSendWr()));
        int size = 48;
        int slot = GRH_BYTES + size;
        for (int i = 0; i < n; i++) {
            b.qp.postRecv(recv(i, Sge.of(b.recvMr, (long) i * slot, slot)));
            Payload.fill(a.sendMr.segment().asSlice((long) i * size, size), 100 + i);
        }
        for (int i = 0; i < n; i++) {
            a.qp.postSend(send(i, SendFlags.SIGNALED, Sge.of(a.sendMr, (long) i * size, size))
                    .ud(a.ah(), b.qp.qpNum(), Loopback.UD_QKEY));
        }
        var sends = awaitCompletions(a.sendCq, n, n + " datagram sends");
        var recvs = awaitCompletions(b.recvCq, n, n + " datagrams");
        for (int i = 0; i < n; i++) {
            assertWc(sends.get(i), i, WcStatus.SUCCESS, a.qp);
            assertWc(recvs.get(i), i, WcStatus.SUCCESS, b.qp);
            assertThat(recvs.get(i).srcQp).isEqualTo(a.qp.qpNum());
            Payload.assertSameBytes(b.recvMr.segment().asSlice((long) i * slot + GRH_BYTES, size),
                    a.sendMr.segment().asSlice((long) i * size, size), "datagram " + i);
        }
    }

    /**
     * The 40-byte GRH area of a RoCEv2 datagram carrying {@code bth_payload} bytes after its BTH
     * and DETH (payload, plus 4 for ImmDt): the packet's own IP header, so its lengths, protocol
     * (UDP) and addresses are those of this datagram.
     */
    private void assertGrhArea(MemorySegment grh, Gid src, Gid dst, int bthPayload) {
        int pad = -bthPayload & 3;
        int udpLength = 8 + 12 + 8 + bthPayload + pad + 4; // UDP, BTH, DETH, payload, pad, ICRC
        if (src.isIpv4Mapped()) {
            Payload.assertFilledWith(grh.asSlice(0, 20), (byte) 0, "the first 20 bytes of an IPv4 GRH area");
            MemorySegment ip = grh.asSlice(20, 20);
            assertThat(ip.get(ValueLayout.JAVA_BYTE, 0)).as("IPv4 version and IHL").isEqualTo((byte) 0x45);
            assertThat(Short.toUnsignedInt(ip.get(BE_SHORT, 2))).as("IPv4 total length").isEqualTo(20 + udpLength);
            assertThat(ip.get(ValueLayout.JAVA_BYTE, 9)).as("IPv4 protocol (UDP)").isEqualTo((byte) 17);
            int sum = 0;
            for (int i = 0; i < 20; i += 2) {
                sum += Short.toUnsignedInt(ip.get(BE_SHORT, i));
            }
            sum = (sum & 0xFFFF) + (sum >>> 16);
            if (fx.supports(Feature.GRH_IPV4_CHECKSUM)) {
                assertThat((sum & 0xFFFF) + (sum >>> 16)).as("IPv4 header checksum").isEqualTo(0xFFFF);
            }
            for (int i = 0; i < 4; i++) {
                assertThat(ip.get(ValueLayout.JAVA_BYTE, 12 + i)).as("source address byte %d", i).isEqualTo(src.byteAt(12 + i));
                assertThat(ip.get(ValueLayout.JAVA_BYTE, 16 + i)).as("destination address byte %d", i)
                        .isEqualTo(dst.byteAt(12 + i));
            }
        } else {
            assertThat(grh.get(ValueLayout.JAVA_BYTE, 0) >> 4 & 0xF).as("IPv6 version").isEqualTo(6);
            assertThat(Short.toUnsignedInt(grh.get(BE_SHORT, 4))).as("IPv6 payload length").isEqualTo(udpLength);
            assertThat(grh.get(ValueLayout.JAVA_BYTE, 6)).as("IPv6 next header (UDP)").isEqualTo((byte) 17);
            for (int i = 0; i < Gid.BYTES; i++) {
                assertThat(grh.get(ValueLayout.JAVA_BYTE, 8 + i)).as("source GID byte %d", i).isEqualTo(src.byteAt(i));
                assertThat(grh.get(ValueLayout.JAVA_BYTE, 24 + i)).as("destination GID byte %d", i).isEqualTo(dst.byteAt(i));
            }
        }
    }
}
