/**
 * One soft device at work. {@code SoftHca} wires the parts: the {@code SoftPort} (endpoint,
 * datagrams, capture, port state), the {@code QpTable}, the memory table, the device counters
 * ({@code CounterFile} when they are shared with other processes), {@code Drops} and its
 * rate-limited {@code DropLog}, {@code SourceCheck}, and the {@code Engine} — the receive loop
 * — that an {@code EngineRunner} runs on a dedicated thread or on the caller's, idling by an
 * {@code IdleStrategy}. Packets leave through {@code WireOut}, the packet writer; the ACK
 * policy ({@code CoalescingAcks}: plain ACKs held and coalesced across passes) is here, in one
 * place, because it is about engine passes.
 *
 * <p>The engine sees a QP as an {@code EngineQp} (its transport state and the monitor both
 * sides hold) and is started from a {@code DeviceSetup}, so it depends on neither the verbs
 * objects nor the public configuration types of {@code org.jrdma.soft}.
 */
package org.jrdma.soft.engine;
