package org.jrdma.bench;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A stand-in for {@code jrdma perf} (not perftest: it moves no data): it takes the flags the
 * runner passes, exits 2 on any other, meets its peer over TCP {@code -p} like perftest's
 * exchange, and writes fixed figures as {@code --out_json} does. {@code --fake-mode} picks the
 * behaviour: ok, stdout (JSON in standard output, no file), hang, fail.
 */
public final class FakePerf {
    static final double BW_MIBS = 1000;
    static final double LAT_US = 3.5;
    static final double P99_US = 7.5;
    static final double P999_US = 20.0;
    static final double CLIENT_ALLOC = 0.25;
    static final double SERVER_ALLOC = 0.75;

    private FakePerf() {
    }

    public static void main(String[] args) throws Exception {
        String test = args[0];
        int size = -1;
        int port = -1;
        long iters = -1;
        Path jsonFile = null;
        String mode = "ok";
        String host = null;
        boolean outJson = false;
        boolean reportAlloc = false;
        List<String> rest = new ArrayList<>(List.of(args).subList(1, args.length));
        for (int i = 0; i < rest.size(); i++) {
            switch (rest.get(i)) {
                case "-s" -> size = Integer.parseInt(rest.get(++i));
                case "-p" -> port = Integer.parseInt(rest.get(++i));
                case "-n" -> iters = Long.parseLong(rest.get(++i));
                case "--warmup" -> Long.parseLong(rest.get(++i)); // accepted like jrdma perf's: nothing to warm here
                case "-D" -> iters = 1000 * Long.parseLong(rest.get(++i));
                case "--out_json" -> outJson = true;
                case "--out_json_file" -> jsonFile = Path.of(rest.get(++i));
                case "--report-alloc" -> reportAlloc = true;
                case "--fake-mode" -> mode = rest.get(++i);
                case "-q", "--idle-qps" -> Integer.parseInt(rest.get(++i)); // the variants' flags: nothing to do here
                case "-e" -> {
                }
                default -> {
                    if (rest.get(i).startsWith("-") || i != rest.size() - 1) {
                        System.err.println("jrdma perf: unknown option " + rest.get(i));
                        System.exit(2);
                    }
                    host = rest.get(i);
                }
            }
        }
        if (size < 1 || port < 1 || iters < 1 || !outJson || !reportAlloc) {
            System.err.println("jrdma perf: missing -s, -p, -n/-D, --out_json or --report-alloc");
            System.exit(2);
        }
        boolean client = host != null;
        if (!client) {
            try (ServerSocket ss = new ServerSocket()) {
                ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
                System.out.println("* Waiting for client to connect... *");
                if (mode.equals("hang")) {
                    Thread.sleep(Long.MAX_VALUE);
                }
                try (Socket s = ss.accept(); InputStream in = s.getInputStream()) {
                    in.readAllBytes();
                }
            }
        } else {
            try (Socket s = new Socket(host, port); OutputStream out = s.getOutputStream()) {
                if (mode.equals("hang")) {
                    s.getInputStream().read();
                }
                if (mode.equals("fail")) {
                    System.err.println("jrdma perf: error: cannot open device soft_lo");
                    System.exit(1);
                }
                out.write(1);
            }
        }
        String json = json(test, size, iters, client);
        System.out.println(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]");
        if (mode.equals("stdout") || jsonFile == null) {
            System.out.println(json.replace(",", ",\n  ")); // several lines, as a pretty printer would
        } else {
            Files.writeString(jsonFile, json);
        }
    }

    private static String json(String test, int size, long iters, boolean client) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "{\"test\":\"%s\",\"size\":%d,\"iterations\":%d", test, size, iters));
        if (client && test.endsWith("_bw")) {
            sb.append(String.format(Locale.ROOT, ",\"bwPeakMiBs\":%.1f,\"bwAvgMiBs\":%.1f,\"msgRateMpps\":%.4f", BW_MIBS * 1.1, BW_MIBS,
                    BW_MIBS * (1 << 20) / size / 1e6));
        } else if (client) {
            sb.append(String.format(Locale.ROOT, ",\"tMinUs\":3.0,\"tMaxUs\":40.0,\"tTypicalUs\":%.2f,\"tAvgUs\":3.9,\"tStdevUs\":0.8,"
                    + "\"p99Us\":%.1f,\"p999Us\":%.1f", LAT_US, P99_US, P999_US));
        }
        // as jrdma perf: the CPU this process had used when set up (here: now, all but the exit)
        double cpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
        sb.append(String.format(Locale.ROOT, ",\"setupCpuSeconds\":%.3f", cpu));
        sb.append(String.format(Locale.ROOT, ",\"allocBytesPerOp\":%.2f}", client ? CLIENT_ALLOC : SERVER_ALLOC));
        return sb.toString();
    }
}
