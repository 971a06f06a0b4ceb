/**
 * How a soft device's packets reach the network: {@code Datagrams} (the UDP socket on port
 * 4791, or a test's replacement), IPv4 and IPv6 {@code RoceEndpoint}s, the checksum options,
 * {@code PortHolder} (who holds a port we could not bind), pcap capture ({@code PcapWriter})
 * and impairment ({@code Impairment}, {@code ImpairmentSetting}, {@code ImpairedDatagrams}).
 * Besides the root package, the only one meant for code outside the module: tools set a
 * device's impairment with {@code Impairment} and {@code ImpairmentSetting}.
 */
package org.jrdma.soft.net;
