package org.jrdma.soft.transport;

import java.lang.foreign.MemorySegment;
import org.jrdma.soft.wire.Aeth;
import org.jrdma.soft.wire.Operation;
import org.jrdma.soft.wire.Psn;
import org.jrdma.soft.wire.RxPacket;
import org.jrdma.soft.memory.Region;
import org.jrdma.soft.memory.RemoteAccess;
import org.jrdma.soft.memory.Window;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.QpType;
import org.jrdma.verbs.WcFlags;
import org.jrdma.verbs.WcOpcode;
import org.jrdma.verbs.WcStatus;

/**
 * The receive path of requests (rxe_resp.c), as a chain of checks: CHK_PSN → CHK_OP_SEQ →
 * CHK_OP_VALID → CHK_RESOURCE → CHK_LENGTH → CHK_RKEY → EXECUTE → COMPLETE → ACKNOWLEDGE.
 * Each check returns {@link ResponderOutcome#EXECUTE} or the outcome that ends the packet, and
 * does nothing else on failure: {@link ErrorTable} says what each outcome means (class B —
 * sequence, RNR — NAK and drop; class C — bad request, bad access — NAK, fail the receive in
 * progress, ERR; UC drops the message) and {@link ResponderErrors} carries it out, in one
 * place. READ replies and atomics are in {@link ReadAtomicResponder}.
 *
 * <p>Over 400 lines because the checks stay in rxe's order in one file, so that the chain reads
 * top to bottom; READ replies, atomics and the error actions are already elsewhere.
 */
public final class Responder {
    private final AckPolicy out;
    private final RemoteAccess access = new RemoteAccess();
    private final ResponderErrors errors;
    private final ReadAtomicResponder readAtomic;

    /** {@code out} decides when plain ACKs leave (the engine's coalescing policy, or any other). */
    public Responder(AckPolicy out) {
        this.out = out;
        this.errors = new ResponderErrors(this.out);
        this.readAtomic = new ReadAtomicResponder(this.out, errors);
    }

    /** Start of an engine pass (ACKs held in a pass go out at the end of the next). */
    public void beginPass() {
        out.beginPass();
    }

    /** End of an engine pass: sends the ACKs held since an earlier pass. */
    public int flushAcks() {
        return out.flushAll();
    }

    /** Sends every held ACK now. */
    public int flushAllAcks() {
        return out.flushEverything();
    }

    /** Whether an ACK is being held (read without the engine lock). */
    public boolean acksHeld() {
        return out.anyHeld();
    }

    /** Sends {@code qp}'s held ACK now (it is being destroyed or reset); call with its lock held. */
    public void flushAck(TransportQp qp) {
        out.flush(qp);
    }

    /** Continues a READ reply in progress: up to {@code burst} response packets. */
    public int doWork(TransportQp qp, int burst) {
        return readAtomic.continueReply(qp, burst);
    }

    /** Handles a request packet; {@code data} is the memory view of the packet's buffer. */
    public void onRequest(TransportQp qp, RxPacket pkt, MemorySegment data) {
        if (!qp.state.receives()) {
            return; // rxe: requests need the responder ready (RTR/RTS); counted by the caller
        }
        ResponderOutcome outcome = check(qp, pkt);
        if (outcome != ResponderOutcome.EXECUTE) {
            respond(qp, pkt, outcome);
            return;
        }
        try {
            switch (operation(pkt)) {
                case SEND -> executeSend(qp, pkt, data);
                case RDMA_WRITE -> executeWrite(qp, pkt, data);
                case RDMA_READ_REQUEST -> readAtomic.executeRead(qp, pkt, access);
                default -> readAtomic.executeAtomic(qp, pkt, access);
            }
        } catch (IllegalStateException e) {
            // SEC-47: the application closed the Arena of a registered buffer between the check
            // and the copy (a closed segment throws, it never crashes the JVM). That is the
            // memory going away under the transfer: fail it as the checks would have.
            if (!memoryGone(qp, pkt)) {
                throw e;
            }
        }
    }

    /** The checks in rxe's order; the first that does not pass ends the chain. */
    private ResponderOutcome check(TransportQp qp, RxPacket pkt) {
        ResponderOutcome o = checkPsn(qp, pkt);
        if (o == ResponderOutcome.EXECUTE) {
            o = checkOpSequence(qp, pkt);
        }
        if (o == ResponderOutcome.EXECUTE) {
            o = checkOpValid(qp, pkt);
        }
        if (o == ResponderOutcome.EXECUTE) {
            o = checkResource(qp, pkt);
        }
        if (o == ResponderOutcome.EXECUTE) {
            o = checkLength(qp, pkt);
        }
        if (o == ResponderOutcome.EXECUTE) {
            o = checkRkey(qp, pkt);
        }
        return o;
    }

    /** Carries out an outcome other than EXECUTE by its row of the table; duplicates of READs and atomics are replayed. */
    private void respond(TransportQp qp, RxPacket pkt, ResponderOutcome outcome) {
        errors.apply(qp, outcome, pkt.bth().psn());
        if (outcome == ResponderOutcome.DUPLICATE_READ) {
            readAtomic.duplicateRead(qp, pkt);
        } else if (outcome == ResponderOutcome.DUPLICATE_ATOMIC) {
            readAtomic.duplicateAtomic(qp, pkt);
        }
    }

    /**
     * The memory of the operation in {@code pkt} is no longer there (deregistered or its Arena
     * closed): a receive buffer is a malformed receive (LOC_PROT_ERR, sender REM_OP_ERR, as for
     * a bad receive buffer); remote memory is an rkey violation (NAK 0x62, class C). Returns
     * false, having done nothing, when the memory is still there.
     */
    private boolean memoryGone(TransportQp qp, RxPacket pkt) {
        Operation op = operation(pkt);
        if (op == Operation.SEND) {
            if (!qp.hasCurrent || qp.current.gather.stillValid()) {
                return false;
            }
            respond(qp, pkt, ResponderOutcome.MALFORMED_WQE);
            return true;
        }
        Region mr = op == Operation.RDMA_WRITE ? qp.resp.writeMr : access.region();
        if (mr == null || mr.isValid()) {
            return false;
        }
        respond(qp, pkt, ResponderOutcome.RKEY_VIOLATION);
        return true;
    }

    private static Operation operation(RxPacket pkt) {
        return pkt.opcode().operation();
    }

    /** FIRST or ONLY: the packet starts a message. */
    private static boolean starts(RxPacket pkt) {
        return pkt.opcode().position().isStart();
    }

    /** LAST or ONLY: the packet ends a message. */
    private static boolean ends(RxPacket pkt) {
        return pkt.opcode().position().isEnd();
    }

    /**
     * CHK_PSN: expected → go on; behind → a duplicate: SENDs and WRITEs are re-ACKed with the
     * last executed PSN and never re-executed (C9-105), READs and atomics are answered from the
     * responder resources; ahead → one sequence NAK carrying the expected PSN, then silence
     * until an in-order packet arrives (rxe sent_psn_nak).
     */
    private ResponderOutcome checkPsn(TransportQp qp, RxPacket pkt) {
        if (qp.type == QpType.UC) {
            return checkUcPsn(qp, pkt);
        }
        int psn = pkt.bth().psn();
        int cmp = Psn.compare(psn, qp.resp.ePsn);
        if (cmp == 0) {
            qp.resp.sentPsnNak = false;
            return ResponderOutcome.EXECUTE;
        }
        if (cmp > 0) {
            return ResponderOutcome.PSN_OUT_OF_SEQUENCE;
        }
        Operation op = operation(pkt);
        if (op == Operation.RDMA_READ_REQUEST) {
            return ResponderOutcome.DUPLICATE_READ;
        }
        return op.isAtomic() ? ResponderOutcome.DUPLICATE_ATOMIC : ResponderOutcome.DUPLICATE;
    }

    /**
     * UC has no ACKs and no retransmission: a packet out of sequence means the message in
     * progress is lost, so drop until the next FIRST/ONLY, which resynchronises the PSN (§2.6).
     */
    private static ResponderOutcome checkUcPsn(TransportQp qp, RxPacket pkt) {
        int psn = pkt.bth().psn();
        if (psn == qp.resp.ePsn && !qp.resp.ucDropping) {
            return ResponderOutcome.EXECUTE;
        }
        if (starts(pkt)) {
            ResponderErrors.abandonMessage(qp);
            qp.resp.ePsn = psn;
            return ResponderOutcome.EXECUTE;
        }
        return ResponderOutcome.PSN_OUT_OF_SEQUENCE;
    }

    /**
     * CHK_OP_SEQ: inside a SEND only SEND MIDDLE/LAST may follow, inside a WRITE only WRITE
     * MIDDLE/LAST; outside a message only FIRST/ONLY (and READs and atomics).
     */
    private static ResponderOutcome checkOpSequence(TransportQp qp, RxPacket pkt) {
        Operation op = operation(pkt);
        if (qp.resp.inSend || qp.resp.inWrite) {
            Operation continuing = qp.resp.inSend ? Operation.SEND : Operation.RDMA_WRITE;
            return op == continuing && !starts(pkt) ? ResponderOutcome.EXECUTE : ResponderOutcome.MISSING_LAST;
        }
        return starts(pkt) ? ResponderOutcome.EXECUTE : ResponderOutcome.MISSING_FIRST;
    }

    /**
     * CHK_OP_VALID: the QP's own access flags must allow remote WRITE, READ or atomics; a QP
     * without them answers invalid request (rxe; RELIABILITY-SECURITY SEC-41).
     */
    private static ResponderOutcome checkOpValid(TransportQp qp, RxPacket pkt) {
        int need = switch (operation(pkt)) {
            case SEND -> 0;
            case RDMA_WRITE -> AccessFlags.REMOTE_WRITE;
            case RDMA_READ_REQUEST -> AccessFlags.REMOTE_READ;
            case COMPARE_SWAP, FETCH_ADD -> AccessFlags.REMOTE_ATOMIC;
            default -> -1;
        };
        return need < 0 || (qp.attr.accessFlags & need) != need ? ResponderOutcome.UNSUPPORTED_OPCODE
                : ResponderOutcome.EXECUTE;
    }

    /**
     * CHK_RESOURCE: a new SEND, and the end of a WRITE with immediate, needs a posted receive —
     * none is an RNR NAK and a drop (class B); READs and atomics need max_dest_rd_atomic > 0.
     */
    private static ResponderOutcome checkResource(TransportQp qp, RxPacket pkt) {
        Operation op = operation(pkt);
        if (op == Operation.RDMA_READ_REQUEST || op.isAtomic()) {
            return qp.attr.maxDestRdAtomic > 0 ? ResponderOutcome.EXECUTE : ResponderOutcome.TOO_MANY_RDMA_ATOMIC;
        }
        boolean consumesReceive = (op == Operation.SEND && starts(pkt))
                || (op == Operation.RDMA_WRITE && ends(pkt) && pkt.opcode().hasImmediate());
        if (!consumesReceive) {
            return ResponderOutcome.EXECUTE;
        }
        if (!qp.takeReceive()) {
            return ResponderOutcome.RNR; // UC: no RNR NAK — the message is lost
        }
        RecvWqe w = qp.current;
        if (w.postError != null || !w.gather.stillValid()) {
            // A receive buffer outside registered memory: the receiver sees LOC_PROT_ERR and
            // the sender REM_OP_ERR (rdma-unit-test BadRecvAddr).
            return ResponderOutcome.MALFORMED_WQE;
        }
        if (op == Operation.SEND) {
            qp.resp.recvOffset = 0;
        }
        return ResponderOutcome.EXECUTE;
    }

    /**
     * CHK_LENGTH: FIRST and MIDDLE carry exactly one MTU, LAST 1..MTU, ONLY 0..MTU (§4.2); a
     * WRITE's packets add up to its RETH length exactly, which is at most 2^31. A SEND longer
     * than the receive buffer fails the receive with LOC_LEN_ERR and NAKs invalid request
     * (rdma-unit-test SendWithTooSmallRecv).
     */
    private static ResponderOutcome checkLength(TransportQp qp, RxPacket pkt) {
        Operation op = operation(pkt);
        if (op != Operation.SEND && op != Operation.RDMA_WRITE) {
            return op == Operation.RDMA_READ_REQUEST && pkt.reth().dmaLengthUnsigned() > (1L << 31)
                    ? ResponderOutcome.LENGTH : ResponderOutcome.EXECUTE;
        }
        int mtu = qp.mtuBytes();
        int len = pkt.payloadLength();
        boolean ok = ends(pkt) ? (starts(pkt) ? len <= mtu : len >= 1 && len <= mtu) : len == mtu;
        if (ok && op == Operation.RDMA_WRITE) {
            long remaining = starts(pkt) ? pkt.reth().dmaLengthUnsigned() : qp.resp.writeRemaining;
            ok = remaining <= (1L << 31) && (ends(pkt) ? len == remaining : len < remaining);
        }
        if (!ok) {
            return ResponderOutcome.LENGTH;
        }
        if (op == Operation.SEND && qp.resp.recvOffset + len > qp.current.gather.totalLength()) {
            return ResponderOutcome.RECV_TOO_SHORT;
        }
        return ResponderOutcome.EXECUTE;
    }

    /**
     * CHK_RKEY, on the packets that name remote memory (a WRITE's FIRST/ONLY, READs, atomics):
     * a failure is a remote access error — NAK 0x62 and ERR (class C) — before any byte moves.
     * Zero-length READs and WRITEs touch nothing and skip the check, as rxe does (SEC-45).
     * Atomics must be 8-byte aligned (else invalid request).
     */
    private ResponderOutcome checkRkey(TransportQp qp, RxPacket pkt) {
        Operation op = operation(pkt);
        if (op == Operation.SEND || (op == Operation.RDMA_WRITE && !starts(pkt))) {
            return ResponderOutcome.EXECUTE;
        }
        long va;
        int rkey;
        long length;
        int need;
        if (op.isAtomic()) {
            va = pkt.atomicEth().va();
            rkey = pkt.atomicEth().rkey();
            length = 8;
            need = AccessFlags.REMOTE_ATOMIC;
            if ((va & 7) != 0) {
                return ResponderOutcome.MISALIGNED_ATOMIC;
            }
        } else {
            va = pkt.reth().va();
            rkey = pkt.reth().rkey();
            length = pkt.reth().dmaLengthUnsigned();
            need = op == Operation.RDMA_WRITE ? AccessFlags.REMOTE_WRITE : AccessFlags.REMOTE_READ;
            if (length == 0) {
                access.clear();
                return ResponderOutcome.EXECUTE;
            }
        }
        return access.check(qp.memory, qp.pd, qp, rkey, va, length, need) ? ResponderOutcome.EXECUTE
                : ResponderOutcome.RKEY_VIOLATION;
    }

    /** EXECUTE + COMPLETE + ACKNOWLEDGE for a SEND packet. */
    private void executeSend(TransportQp qp, RxPacket pkt, MemorySegment data) {
        RecvWqe w = qp.current;
        if (pkt.payloadLength() > 0) {
            w.gather.copyIn(data, pkt.payloadOffset(), qp.resp.recvOffset, pkt.payloadLength());
            qp.resp.recvOffset += pkt.payloadLength();
        }
        if (ends(pkt)) {
            qp.resp.inSend = false;
            int flags = 0;
            int imm = 0;
            if (pkt.opcode().hasImmediate()) {
                flags = WcFlags.WITH_IMM;
                imm = pkt.immDt().immediate();
            } else if (pkt.opcode().hasInvalidate()) {
                // SEND_WITH_INV: revoke the window first; a bad rkey fails the receive (§4.2 table).
                imm = pkt.ieth().rkey();
                Window mw = qp.memory.windowByRkey(imm);
                if (mw == null || !mw.invalidate(qp.pd)) {
                    respond(qp, pkt, ResponderOutcome.INVALIDATE_RKEY);
                    return;
                }
                flags = WcFlags.WITH_INV;
            }
            qp.completeRecv(WcStatus.SUCCESS, qp.resp.recvOffset, flags, imm, pkt.bth().se(), WcOpcode.RECV, qp.attr.destQpn);
            qp.resp.recvOffset = 0;
        } else {
            qp.resp.inSend = true;
        }
        finish(qp, pkt);
    }

    /**
     * EXECUTE for an RDMA WRITE packet: the payload lands at the address the FIRST/ONLY packet's
     * RETH named (checked there), advancing packet by packet. A WRITE with immediate consumes a
     * receive at its end: RECV_RDMA_WITH_IMM with the write's total length (rxe).
     */
    private void executeWrite(TransportQp qp, RxPacket pkt, MemorySegment data) {
        if (starts(pkt)) {
            qp.resp.writeTarget = access.target();
            qp.resp.writeMr = access.region();
            qp.resp.writeOffset = access.offset();
            qp.resp.writeLength = pkt.reth().dmaLengthUnsigned();
            qp.resp.writeRemaining = qp.resp.writeLength;
        }
        int len = pkt.payloadLength();
        if (qp.resp.writeMr != null && !qp.resp.writeMr.isValid()) {
            // SEC-46: the region was deregistered (or its Arena closed) after the WRITE's first
            // packet was checked: after ibv_dereg_mr returns, no byte may land in it.
            respond(qp, pkt, ResponderOutcome.RKEY_VIOLATION);
            return;
        }
        if (len > 0) {
            MemorySegment.copy(data, pkt.payloadOffset(), qp.resp.writeTarget, qp.resp.writeOffset, len);
            qp.resp.writeOffset += len;
            qp.resp.writeRemaining -= len;
        }
        if (ends(pkt)) {
            qp.resp.inWrite = false;
            qp.resp.writeTarget = null;
            qp.resp.writeMr = null;
            if (pkt.opcode().hasImmediate()) {
                qp.completeRecv(WcStatus.SUCCESS, qp.resp.writeLength, true, pkt.immDt().immediate(), pkt.bth().se(),
                        WcOpcode.RECV_RDMA_WITH_IMM, qp.attr.destQpn);
            }
        } else {
            qp.resp.inWrite = true;
        }
        finish(qp, pkt);
    }

    /** ePSN moves on; the last packet of a message counts in the MSN; AckReq gets an ACK. */
    private void finish(TransportQp qp, RxPacket pkt) {
        qp.resp.ePsn = Psn.next(pkt.bth().psn());
        if (ends(pkt)) {
            qp.resp.msn = Psn.next(qp.resp.msn); // MSN counts completed messages (§2.7), 24-bit like a PSN
        }
        // Packets without AckReq are acknowledged by the next ACK (an ACK covers all PSNs ≤ it).
        if (pkt.bth().ackReq() && qp.type == QpType.RC) {
            out.sendAck(qp, Aeth.ACK_SYNDROME, pkt.bth().psn(), qp.resp.msn);
        }
    }
}
