/**
 * The soft RoCEv2 provider: the verbs objects and the device's public configuration. The
 * layout shows the design (issue 14); each package says what it owns, and the dependencies
 * run one way — down this list — so that nothing below imports this package:
 *
 * <ul>
 *   <li>{@code org.jrdma.soft} (this package) — the objects that implement jrdma-verbs
 *       ({@code SoftProvider}, {@code SoftDevice}, {@code SoftContext}, {@code SoftPd},
 *       {@code SoftMr}, {@code SoftMw}, {@code SoftCq}, {@code SoftQp}, {@code SoftSrq},
 *       {@code SoftAh}, {@code SoftCompChannel}, …) with their argument checks and lifecycles,
 *       and the configuration a user gives a device ({@code SoftOptions},
 *       {@code SoftDeviceSpec}, {@code SoftDeviceDiscovery}, {@code IdleMode},
 *       {@code SoftLimits}). Opening a device (bind, capture, start) is {@code SoftDevice}'s.
 *   <li>{@code org.jrdma.soft.engine} — one device at work: the receive loop, the packet
 *       writer, the ACK policy, the runner and its idle strategies, the port, the QP table,
 *       drops, source checking and the counters file.
 *   <li>{@code org.jrdma.soft.transport} — the transport stages (requester, completer,
 *       responder) and the per-QP state they drive.
 *   <li>{@code org.jrdma.soft.memory} — protection-domain identity, registered regions and
 *       windows, keys, and the checks of local and remote access.
 *   <li>{@code org.jrdma.soft.wire} — the RoCEv2 wire format.
 *   <li>{@code org.jrdma.soft.net} — datagrams, endpoints, impairment and capture.
 * </ul>
 *
 * <p>Only this package and {@code net} (impairment settings) are meant for code outside the
 * module; {@code PackageLayoutTest} holds the rule that sub-packages do not import this one
 * and that this package keeps only verbs objects and configuration.
 */
package org.jrdma.soft;
