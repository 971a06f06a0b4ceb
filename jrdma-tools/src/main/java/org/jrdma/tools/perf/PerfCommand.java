package org.jrdma.tools.perf;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jrdma.bootstrap.MalformedMessageException;
import org.jrdma.bootstrap.Mtus;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.Main;
import org.jrdma.tools.options.DeviceOption;
import org.jrdma.tools.options.TimeoutOption;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.QpType;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jrdma perf <test> [host]}: perftest's ib_*_bw and ib_*_lat, with perftest's flags and
 * its TCP exchange, so that either side may be a real perftest (same test, same flags). Without
 * a host it is the server and waits for one client on {@code -p}. Flags are checked here (usage
 * errors exit 2); failures while running exit 1 (Main's policy).
 */
@Command(name = "perf", mixinStandardHelpOptions = true, sortOptions = false, description = {
        "perftest-compatible benchmarks: send_bw, write_bw, read_bw, atomic_bw, send_lat, write_lat, read_lat, atomic_lat.",
        "Server: jrdma perf write_bw      Client: jrdma perf write_bw <server-host>",
        "Both sides need the same test flags; either side may be perftest's ib_<test>."})
public final class PerfCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "TEST", description = "send_bw, write_bw, read_bw, atomic_bw, send_lat, write_lat, read_lat or atomic_lat.")
    String testName;

    @Parameters(index = "1", arity = "0..1", paramLabel = "HOST", description = "The server to connect to (omit to be the server).")
    String host;

    @CommandLine.Mixin
    DeviceOption device;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE",
            description = "Bytes per message, as perftest reads it: 4096, 0x1000, 64K (×1024), 1M (×1024²) "
                    + "(default: 65536 for bw, 2 for lat, 8 for atomics).")
    String size;

    @Option(names = {"-a", "--all"}, description = "Run sizes 2 to 2^23 (UD: to the MTU).")
    boolean all;

    @Option(names = {"-n", "--iters"}, description = "Iterations per QP (default: 5000 for bw, 1000 for lat).")
    Integer iters;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "Run for this long instead of -n.")
    Integer duration;

    @Option(names = {"-q", "--qp"}, defaultValue = "1", description = "QPs, used round robin (bw only; default: ${DEFAULT-VALUE}).")
    int qps;

    @Option(names = {"-b", "--bidirectional"}, description = "Both sides send (bw only).")
    boolean bidirectional;

    @Option(names = {"-e", "--events"}, description = "Sleep on CQ events instead of busy polling (not write_lat, which polls memory).")
    boolean events;

    @Option(names = {"-I", "--inline_size"}, description = "Max inline data (default: 0 for bw, 236 send_lat (UD 188), 220 write_lat).")
    Integer inlineSize;

    @Option(names = {"-m", "--mtu"}, description = "Path MTU: 256, 512, 1024, 2048 or 4096 (default: the port's active MTU).")
    Integer mtu;

    @Option(names = {"-x", "--gid-index"}, defaultValue = "0", description = "Local GID index (default: ${DEFAULT-VALUE}).")
    int gidIndex;

    @Option(names = {"-t", "--tx-depth"}, description = "Send queue depth (default: 128 for bw, 1 for lat).")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, defaultValue = "512", description = "Receives posted per QP in SEND tests (default: ${DEFAULT-VALUE}, at most -n).")
    int rxDepth;

    @Option(names = {"-Q", "--cq-mod"}, description = "Signal one send WR in this many (bw; default: 100, with -l N: N).")
    Integer cqMod;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N", defaultValue = "1",
            description = "Bandwidth tests: the sender posts N WRs per post call, chained as one list (ibv_post_send's wr->next,"
                    + " one doorbell), as perftest's --post_list. Without -Q the CQ moderation becomes N, with -Q it must divide N;"
                    + " -n must be a multiple of N and N at most --tx-depth (default: ${DEFAULT-VALUE}).")
    int postList;

    @Option(names = {"-o", "--outs"}, defaultValue = "16",
            description = "Outstanding READs/atomics this side accepts (perftest uses the device maximum; jrdma: ${DEFAULT-VALUE}).")
    int outReads;

    @Option(names = {"-c", "--connection"}, defaultValue = "RC", description = "RC, UC (send/write) or UD (send) (default: ${DEFAULT-VALUE}).")
    String connection;

    @Option(names = {"-p", "--port"}, defaultValue = "18515", description = "TCP port of the exchange (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = {"-A", "--atomic_type"}, defaultValue = "FETCH_AND_ADD", description = "CMP_AND_SWAP or FETCH_AND_ADD (default: ${DEFAULT-VALUE}).")
    String atomicType;

    @Option(names = "--report_gbits", description = "Report bandwidth in Gb/s instead of MiB/s.")
    boolean reportGbits;

    @Option(names = "--out_json", description = "Also write the results as JSON (to --out_json_file).")
    boolean outJson;

    @Option(names = "--out_json_file", paramLabel = "FILE", description = "The JSON file (default: perftest_out.json; implies --out_json).")
    Path outJsonFile;

    @Option(names = "--check", description = "Verify what arrives (both sides jrdma); the summary line says what was: "
            + "every message received (send_bw, send_lat), every WRITE as it lands (write_lat), every READ (read_bw, read_lat), "
            + "every atomic's original value and atomic_bw's final counters - but for write_bw only the final contents of each "
            + "target slot (the last WRITE into it).")
    boolean check;

    @Option(names = "--report-alloc", description = "Print the heap bytes allocated per operation while measuring (all threads).")
    boolean reportAlloc;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "N",
            description = "Unmeasured iterations before each size's run, so the JVM has compiled the data path (jrdma's own; give it to both sides, like -n; not with -D or --check; default: ${DEFAULT-VALUE}, as perftest).")
    int warmup;

    @Option(names = "--idle-qps", defaultValue = "0", paramLabel = "N",
            description = "jrdma's own: hold N more RC QPs on this side, connected (in pairs, to each other) and at RTS, that carry "
                    + "nothing, to measure the test beside idle QPs; local to each side, not exchanged (perftest has no such flag; "
                    + "a peer without it is unaffected); at most " + IdleQps.MAX + " (default: ${DEFAULT-VALUE}).")
    int idleQps;

    @Option(names = {"-R", "--rdma_cm"}, description = "Connect with the connection manager (rdma_cm), no TCP: an exchange QP, then the test QPs, to HOST:--port (RC).")
    boolean rdmaCm;

    @Option(names = "-F", description = "Accepted and ignored (perftest: do not fail on CPU frequency warnings).")
    boolean ignoreCpuFreq;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "TIMEOUT", defaultValue = "14",
            description = "RC QPs' local ACK timeout: 4.096 usec * 2^TIMEOUT, 0..31 (0: none) (default: ${DEFAULT-VALUE}, perftest's DEF_QP_TIME); not with -R.")
    int qpTimeout;

    @Option(names = {"-S", "--sl"}, paramLabel = "SL", defaultValue = "0",
            description = "Service level of the address vector, 0..15 (RoCE carries no SL on the wire: a NIC maps it to a priority) (default: ${DEFAULT-VALUE}); not with -R.")
    int sl;

    @Option(names = {"-T", "--tos"}, paramLabel = "TOS",
            description = "perftest: the rdma_cm QPs' type of service, with -R. Refused here: jrdma's connection manager has no rdma_set_option(RDMA_OPTION_ID_TOS).")
    Integer tos;

    @Option(names = {"-N", "--noPeak"}, description = "Do not compute the peak bandwidth (its column reads 0.00, as perftest's) (bw tests).")
    boolean noPeak;

    @Option(names = {"-H", "--report-histogram", "--report-histogrm"},
            description = "Latency tests: print every sample, sorted (\"#, usec\" then \"N, T\"), before the row, as perftest's -H.")
    boolean histogram;

    @Option(names = {"-z", "--comm_rdma_cm"},
            description = "Exchange the keys over an rdma_cm-connected QP (no TCP), and connect the test QPs by verbs (RC), as perftest's -z.")
    boolean commRdmaCm;

    @Option(names = "--perform_warm_up",
            description = "write_bw, read_bw, atomic_bw: the sender posts one send queue's worth (-t, or one -l list) per QP, unmeasured, before the test, as perftest's; other tests ignore it, as perftest's do.")
    boolean performWarmUp;

    @Option(names = "--run_infinitely",
            description = "Bandwidth tests (write_bw, read_bw, atomic_bw here): run until killed, a row every -D seconds (default 5), as perftest's.")
    boolean runInfinitely;

    /** The run's own wait while the peer measures is --run-timeout-s, below. */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption(60_000);

    @Option(names = "--run-timeout-s", defaultValue = "600", description = "How long a side waits over TCP while its peer measures, on top of -D (default: ${DEFAULT-VALUE}).")
    long runTimeoutS;

    /** Deadlines are kept in nanoseconds from System.nanoTime(): a day, and 30 days, keep them far from overflow. */
    static final long MAX_TIMEOUT_MS = 86_400_000L;
    static final long MAX_RUN_TIMEOUT_S = 2_592_000L;
    /** perftest's DEF_CQ_MOD. */
    static final int DEFAULT_CQ_MOD = 100;
    /** perftest's DEF_DURATION: --run_infinitely's interval without -D. */
    static final int DEF_DURATION = 5;

    @Override
    public Integer call() {
        PerfRunner.run(toConfig(), spec.commandLine().getOut(), Main.notices(spec));
        return ExitCodes.OK;
    }

    /** Checks every flag against the test (usage errors) and builds the configuration. */
    PerfConfig toConfig() {
        PerfTest test = PerfTest.byName(testName);
        if (test == null) {
            throw usage("unknown test '" + testName + "': must be one of " + PerfTest.names());
        }
        Verb verb = test.verb();
        QpType type = switch (connection.toUpperCase(java.util.Locale.ROOT)) {
            case "RC" -> QpType.RC;
            case "UC" -> QpType.UC;
            case "UD" -> QpType.UD;
            default -> throw usage("--connection must be RC, UC or UD, not '" + connection + "'");
        };
        if (type == QpType.UC && verb.usesReadResources()) {
            throw usage("UC has no READ or atomics: " + test.cliName() + " needs RC");
        }
        if (type == QpType.UD && verb != Verb.SEND) {
            throw usage("UD carries only SEND: " + test.cliName() + " needs RC" + (verb == Verb.WRITE ? " or UC" : ""));
        }
        AtomicType atomic;
        try {
            atomic = AtomicType.valueOf(atomicType.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw usage("--atomic_type must be CMP_AND_SWAP or FETCH_AND_ADD, not '" + atomicType + "'");
        }
        long requested;
        try {
            requested = size != null ? PerftestSize.parse(size) : test.defaultSize();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (requested < 1 || requested > PerfConfig.MAX_ALL_SIZE) {
            throw usage("--size must be 1.." + PerfConfig.MAX_ALL_SIZE + " (max_msg_sz), not " + (size != null ? size : requested));
        }
        int msgSize = (int) requested;
        if (verb == Verb.ATOMIC) {
            if (msgSize != PerfTest.ATOMIC_BYTES) {
                throw usage("atomics move 8 bytes: --size must be 8, not " + msgSize);
            }
            if (all) {
                throw usage("--all does not apply to atomics (always 8 bytes)");
            }
        }
        if (msgSize < 1 || msgSize > PerfConfig.MAX_ALL_SIZE) {
            throw usage("--size must be 1.." + PerfConfig.MAX_ALL_SIZE + " (max_msg_sz), not " + msgSize);
        }
        int n = iters != null ? iters : test.defaultIters();
        int minIters = test.isBandwidth() ? 1 : 5;
        if (n < minIters) {
            throw usage("--iters must be at least " + minIters + (test.isBandwidth() ? "" : " for a latency test (the two highest samples are dropped)")
                    + ", not " + n);
        }
        int seconds = duration != null ? duration : 0;
        if (duration != null && duration < 1) {
            throw usage("--duration must be at least 1 second, not " + duration);
        }
        if (seconds > 0 && all) {
            throw usage("--duration and --all do not go together");
        }
        if (qps < 1 || qps > 64) {
            throw usage("--qp must be 1..64, not " + qps);
        }
        if (!test.isBandwidth() && qps != 1) {
            throw usage("latency tests use one QP");
        }
        if (bidirectional && !test.isBandwidth()) {
            throw usage("--bidirectional is for bandwidth tests");
        }
        if (events && test == PerfTest.WRITE_LAT) {
            throw usage("write_lat polls memory for the peer's WRITE; --events does not apply");
        }
        if (inlineSize != null && (inlineSize < 0 || inlineSize > 912)) {
            throw usage("--inline_size must be 0..912, not " + inlineSize);
        }
        Mtu pathMtu = null;
        if (mtu != null) {
            try {
                pathMtu = Mtus.of(mtu);
            } catch (MalformedMessageException e) {
                throw usage("--mtu " + e.problem());
            }
        }
        if (gidIndex < 0) {
            throw usage("--gid-index must be 0 or more, not " + gidIndex);
        }
        int tx = txDepth != null ? txDepth : test.defaultTxDepth();
        if (tx < 1 || tx > 16384) {
            throw usage("--tx-depth must be 1..16384, not " + tx);
        }
        if (rxDepth < 1 || rxDepth > 16384) {
            throw usage("--rx-depth must be 1..16384, not " + rxDepth);
        }
        int mod = cqMod != null ? cqMod : DEFAULT_CQ_MOD;
        if (mod < 1 || mod > 1000) {
            throw usage("--cq-mod must be 1..1000, not " + mod);
        }
        // perftest's force_dependecies for --post_list, with its words
        if (postList < 1 || postList > 16384) {
            throw usage("--post_list must be 1..16384, not " + postList);
        }
        boolean modFromList = false;
        if (postList > 1) {
            if (!test.isBandwidth()) {
                throw usage("Post list is supported in BW tests only (--post_list " + postList + " with " + test.cliName() + ")");
            }
            if (seconds == 0 && n % postList != 0) {
                throw usage("Number of iterations must be a multiple of post list size (--iters " + n + ", --post_list "
                        + postList + ")");
            }
            if (cqMod == null) {
                mod = postList;
                modFromList = true;
            } else if (postList % mod != 0) {
                throw usage("Post list size must be a multiple of CQ moderation (--post_list " + postList + ", --cq-mod " + mod
                        + ")");
            }
            if (postList > tx) {
                // perftest would wait for ever for room for a whole list
                throw usage("--post_list " + postList + " is above --tx-depth " + tx + ": a list must fit the send queue");
            }
        }
        if (outReads < 1 || outReads > 0xFFFF) {
            throw usage("--outs must be 1..65535, not " + outReads);
        }
        if (port < 1 || port > 65535) {
            throw usage("--port must be 1..65535, not " + port);
        }
        if (timeout.millis() < 1 || timeout.millis() > MAX_TIMEOUT_MS) {
            throw usage("--timeout-ms must be 1.." + MAX_TIMEOUT_MS + " (a day), not " + timeout.millis());
        }
        if (runTimeoutS < 1 || runTimeoutS > MAX_RUN_TIMEOUT_S) {
            throw usage("--run-timeout-s must be 1.." + MAX_RUN_TIMEOUT_S + " (30 days), not " + runTimeoutS);
        }
        if (warmup < 0 || (warmup > 0 && (seconds > 0 || check))) {
            throw usage("--warmup must be 0 or more, and is not for -D or --check runs");
        }
        if (rdmaCm && type != QpType.RC) {
            throw usage("--rdma_cm connects RC QPs here (perftest's -R with -c RC)");
        }
        // perftest's -u is a uint8_t; the QP attribute is five bits (IBTA 9.7.6.1.3)
        if (qpTimeout < 0 || qpTimeout > 31) {
            throw usage("--qp-timeout must be 0..31 (4.096 usec * 2^timeout), not " + qpTimeout);
        }
        if (sl < 0 || sl > 15) {
            throw usage("--sl must be 0..15 (perftest: Only 15 Service levels), not " + sl);
        }
        if (tos != null) {
            if (tos < 0 || tos > 255) {
                throw usage("--tos must be 0..255 (perftest's TOS), not " + tos);
            }
            if (!rdmaCm) {
                // perftest exits here too: TOS only valid for rdma_cm based QP and RawEth QP
                throw usage("--tos is only valid for rdma_cm based QPs (-R), as perftest says");
            }
            throw usage("--tos is not supported by jrdma: its connection manager has no rdma_set_option(RDMA_OPTION_ID_TOS), "
                    + "and the soft provider's UDP datagrams carry no IP TOS, so the traffic class would not reach the wire");
        }
        if (rdmaCm && (qpTimeout != PerfConfig.Extras.DEFAULT_QP_TIMEOUT || sl != 0)) {
            throw usage("--qp-timeout and --sl are not supported by jrdma with -R: the connection manager sets those attributes "
                    + "(perftest's -R does not apply them either); use the TCP exchange or -z");
        }
        if (noPeak && !test.isBandwidth()) {
            throw usage("--noPeak is for bandwidth tests (perftest: NoPeak only valid for BW tests)");
        }
        if (histogram && test.isBandwidth()) {
            throw usage("--report-histogram is for latency tests (perftest: Available only on Latency tests)");
        }
        if (histogram && seconds > 0) {
            throw usage("--report-histogram needs -n: a -D latency run keeps no samples");
        }
        if (commRdmaCm) {
            if (rdmaCm) {
                throw usage("--comm_rdma_cm and --rdma_cm: -R already exchanges over rdma_cm; give one");
            }
            if (type == QpType.UC) {
                throw usage("UC is not supported in librdmacm (perftest's words for -z with -c UC)");
            }
        }
        if (runInfinitely) {
            if (!test.isBandwidth()) {
                throw usage("run_infinitely exists only in BW tests for now (perftest's words)");
            }
            if (events) {
                throw usage("run_infinitely does not support events feature yet (perftest's words)");
            }
            if (verb == Verb.SEND) {
                throw usage("--run_infinitely is not supported by jrdma for send_bw: its receiver counts messages per run, "
                        + "and a run without end has no count to agree on; use write_bw, read_bw or atomic_bw");
            }
            if (bidirectional) {
                throw usage("--run_infinitely is not supported by jrdma with --bidirectional: each side would report only its own "
                        + "direction, where perftest's sums both");
            }
            if (all) {
                throw usage("--run_infinitely and --all do not go together");
            }
            if (check || warmup > 0) {
                throw usage("--run_infinitely does not go with --check or --warmup");
            }
            if (seconds == 0) {
                seconds = DEF_DURATION;
            }
        }
        if (idleQps < 0 || idleQps > IdleQps.MAX) {
            throw usage("--idle-qps must be 0.." + IdleQps.MAX + ", not " + idleQps);
        }
        Path json = outJsonFile != null ? outJsonFile : outJson ? Path.of("perftest_out.json") : null;
        return new PerfConfig(test, host, device.name(), port, msgSize, size != null, all, n, seconds, qps, bidirectional, events,
                inlineSize != null ? inlineSize : -1, pathMtu, gidIndex, tx, rxDepth, mod, outReads, type, atomic,
                reportGbits, json, check, reportAlloc, timeout.duration(), Duration.ofSeconds(runTimeoutS), warmup, rdmaCm,
                postList, modFromList, idleQps,
                new PerfConfig.Extras(qpTimeout, sl, noPeak, histogram, commRdmaCm, performWarmUp, runInfinitely));
    }

    private CommandLine.ParameterException usage(String message) {
        return ExitCodes.usage(spec, message);
    }
}
