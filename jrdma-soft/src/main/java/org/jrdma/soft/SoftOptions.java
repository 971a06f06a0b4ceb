package org.jrdma.soft;

import java.nio.file.Path;
import org.jrdma.soft.engine.CounterFile;
import org.jrdma.soft.engine.NanoClock;
import org.jrdma.soft.engine.SourceCheck;
import org.jrdma.soft.engine.ThreadingMode;
import org.jrdma.soft.net.DatagramsChoice;
import org.jrdma.soft.net.DatagramsFactory;
import org.jrdma.soft.net.ImpairedDatagrams;
import org.jrdma.soft.net.Impairment;
import org.jrdma.soft.net.ImpairmentSetting;

/**
 * How a device runs.
 *
 * @param threading dedicated engine thread, or stepped by the caller
 * @param clock the time source for timers (a test may substitute its own)
 * @param datagrams opens the packet channel on the device's address (a UDP socket by default)
 * @param pcap a file that records the device's packets, or null
 * @param pcapRequired whether a pcap that cannot be created fails the open (one asked for by
 *     name, {@link #pcap(Path)}) or is warned about and skipped (one from {@value #PCAP_DIR_ENV})
 * @param sourceCheck whether connected QPs pin the peer's UDP source port as well as its address
 *     ({@link SourceCheck}; strict unless {@value SourceCheck#PROPERTY} says compat)
 * @param statsDir where the device's counters are shared with other processes (see
 *     {@link CounterFile}), or null when they stay private to this process
 * @param idle how the engine thread waits when there is nothing to do ({@link IdleMode#BACKOFF} by default)
 */
public record SoftOptions(ThreadingMode threading, NanoClock clock, DatagramsFactory datagrams, Path pcap,
        boolean pcapRequired, SourceCheck sourceCheck, Path statsDir, IdleMode idle) {
    /**
     * Environment variable: a directory where every opened soft device records its packets
     * as {@code <device>-<pid>.pcap} (for Wireshark/tshark).
     */
    public static final String PCAP_DIR_ENV = "JRDMA_PCAP_DIR";

    /**
     * Counters shared in the configured stats directory ({@value CounterFile#ENV}), no pcap, strict
     * source checks, the datagram path {@value DatagramsChoice#PROPERTY} names — {@code nio} (the
     * DatagramChannel) when unset: the native door stays opt-in in this step (issue 15 step 1).
     */
    public static SoftOptions defaults() {
        return new SoftOptions(ThreadingMode.DEDICATED, System::nanoTime, DatagramsChoice.configured().factory(), null, false,
                SourceCheck.configured(), CounterFile.directory().orElse(null), IdleMode.BACKOFF);
    }

    /**
     * The defaults, plus a pcap per device when {@value #PCAP_DIR_ENV} is set, plus impaired
     * outgoing packets when {@value ImpairmentSetting#ENV} (or {@code -D}{@value
     * ImpairmentSetting#PROPERTY}) is set; the device then logs the impairment and its seed
     * (INFO) when it opens.
     */
    static SoftOptions forDevice(String deviceName) {
        String dir = System.getenv(PCAP_DIR_ENV);
        SoftOptions o = dir == null || dir.isBlank() ? defaults()
                : defaults().withPcap(pcapFile(Path.of(dir), deviceName), false);
        Impairment impairment = ImpairmentSetting.configured();
        return impairment == null ? o : o.datagrams(ImpairmentSetting.announced(deviceName, impairment, o.datagrams()));
    }

    public SoftOptions datagrams(DatagramsFactory factory) {
        return new SoftOptions(threading, clock, factory, pcap, pcapRequired, sourceCheck, statsDir, idle);
    }

    /**
     * Impairs the device's outgoing packets (loss, reordering, duplication, corruption, delay;
     * see {@link ImpairedDatagrams}), with delays on this options' clock. It wraps the current
     * {@link #datagrams} factory and takes the current clock, so call it after
     * {@link #datagrams(DatagramsFactory)} and {@link #clock(NanoClock)}.
     */
    public SoftOptions impairment(Impairment impairment) {
        NanoClock c = clock;
        return datagrams(ImpairedDatagrams.factory(impairment, datagrams, c::nanoTime));
    }

    public SoftOptions threading(ThreadingMode mode) {
        return new SoftOptions(mode, clock, datagrams, pcap, pcapRequired, sourceCheck, statsDir, idle);
    }

    public SoftOptions clock(NanoClock c) {
        return new SoftOptions(threading, c, datagrams, pcap, pcapRequired, sourceCheck, statsDir, idle);
    }

    /**
     * The file {@value #PCAP_DIR_ENV} gives a device: {@code <device>-<pid>.pcap}, so that two
     * processes with the same device name (two pingpong ends on one host) do not write one file.
     */
    static Path pcapFile(Path dir, String deviceName) {
        return dir.resolve(deviceName + "-" + ProcessHandle.current().pid() + ".pcap");
    }

    /** Strict (address and pinned port) or compat (address only) source checking of RC/UC packets. */
    public SoftOptions sourceCheck(SourceCheck check) {
        return new SoftOptions(threading, clock, datagrams, pcap, pcapRequired, java.util.Objects.requireNonNull(check),
                statsDir, idle);
    }

    /**
     * Records the device's packets in this pcap file (null: none). The file was asked for by
     * name, so opening the device fails, naming the reason, when it cannot be created; a write
     * that fails later (a full disk) stops the capture with a warning, never the traffic.
     */
    public SoftOptions pcap(Path file) {
        return withPcap(file, true);
    }

    SoftOptions withPcap(Path file, boolean required) {
        return new SoftOptions(threading, clock, datagrams, file, required, sourceCheck, statsDir, idle);
    }

    /** Shares the device counters through files in {@code dir} (see {@link CounterFile}). */
    public SoftOptions statsDir(Path dir) {
        return new SoftOptions(threading, clock, datagrams, pcap, pcapRequired, sourceCheck,
                java.util.Objects.requireNonNull(dir, "statsDir: a directory (privateCounters() keeps the counters in the process)"),
                idle);
    }

    /**
     * Keeps the device counters in this process only: for devices no other process can name
     * (chaos runs and tests on fresh addresses), which would otherwise leave a retired total per
     * device name in the shared directory.
     */
    public SoftOptions privateCounters() {
        return new SoftOptions(threading, clock, datagrams, pcap, pcapRequired, sourceCheck, null, idle);
    }

    /** The engine thread's idle mode. */
    public SoftOptions idle(IdleMode mode) {
        return new SoftOptions(threading, clock, datagrams, pcap, pcapRequired, sourceCheck, statsDir,
                java.util.Objects.requireNonNull(mode, "idle"));
    }
}
