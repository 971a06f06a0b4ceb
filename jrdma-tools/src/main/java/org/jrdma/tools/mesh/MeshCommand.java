package org.jrdma.tools.mesh;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jrdma.bootstrap.InvalidFieldException;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.tools.ExitCodes;
import org.jrdma.tools.options.DeviceOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma mesh}: one rank of an N-rank job. The ranks meet in a store (etcd, or a shared
 * directory), swap connection info there, connect a full mesh of RC QPs, prove every pair by
 * RDMA (each rank WRITEs a pattern into each peer's region and then SENDs; the peer checks it
 * byte for byte) and report to rank 0, which prints the N×N matrix. Start one per rank, in any
 * order, on any hosts that reach the store and each other.
 */
@Command(name = "mesh", mixinStandardHelpOptions = true, description = {
        "One rank of a job that connects every pair of ranks by RC and proves each pair by RDMA WRITE:",
        "  jrdma mesh --store etcd://HOST:2379 --job ID --rank I --size N",
        "  jrdma mesh --store file:///shared/dir --job ID --rank I --size N",
        "Rank 0 prints the N x N matrix of verified pairs; every rank exits 1 if any pair failed",
        "or a rank is missing (named). etcd needs jrdma-etcd on the class path: ./jrdma adds it."})
public final class MeshCommand implements Callable<Integer> {
    /** The environment variable a password may come from (never the command line: ps shows it). */
    static final String PASSWORD_ENV = "JRDMA_STORE_PASSWORD";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--store", required = true, paramLabel = "URI",
            description = "Where the ranks meet: etcd://host:port[,host:port...], etcds://... (TLS), or file:///dir.")
    URI store;

    @Option(names = "--job", required = true, paramLabel = "ID",
            description = "The job id; every rank of a run gives the same one. A rerun with the same id is a new epoch.")
    String job;

    @Option(names = "--rank", paramLabel = "I", description = "This rank, 0 to size - 1.")
    Integer rank;

    @Option(names = "--ranks", paramLabel = "LIST",
            description = "Instead of --rank: run these ranks in this process, each on a thread (0-63, 0,2,4-7), through one"
                    + " store connection; -d may then list devices, used in turn; prints a line per rank and a summary of"
                    + " set-up time, store traffic and heap.")
    String ranks;

    @Option(names = "--size", required = true, paramLabel = "N", description = "The number of ranks.")
    int size;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "60000",
            description = "Deadline of the rendezvous (from joining) and of each wait for a completion (default: ${DEFAULT-VALUE}).")
    long timeoutMs;

    @Option(names = "--lease-ttl-ms", paramLabel = "MS", defaultValue = "5000",
            description = "etcd: the TTL of this rank's lease; a rank that dies is named this long after (default: ${DEFAULT-VALUE}).")
    long leaseTtlMs;

    @Option(names = "--request-timeout-ms", paramLabel = "MS", defaultValue = "5000",
            description = "Deadline of each request to the store (default: ${DEFAULT-VALUE}).")
    long requestTimeoutMs;

    @Option(names = "--cacert", paramLabel = "PEM", description = "etcds: the CA that signed the servers' certificates.")
    Path caCert;

    @Option(names = "--cert", paramLabel = "PEM", description = "etcds: this client's certificate (with --key), for client-certificate auth.")
    Path clientCert;

    @Option(names = "--key", paramLabel = "PEM", description = "etcds: this client's private key (PKCS#8).")
    Path clientKey;

    @Option(names = "--user", paramLabel = "NAME",
            description = "etcd user; the password comes from --password-file or " + PASSWORD_ENV + ".")
    String user;

    @Option(names = "--password-file", paramLabel = "FILE", description = "A file holding the etcd user's password (first line).")
    Path passwordFile;

    @Option(names = {"-s", "--slot-size"}, paramLabel = "BYTES", defaultValue = "4096",
            description = "Bytes each rank WRITEs to each peer (default: ${DEFAULT-VALUE}).")
    int slot;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", defaultValue = "0", description = "GID index (default: ${DEFAULT-VALUE}).")
    int gidIndex;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "T", defaultValue = "18",
            description = "QP ACK timeout, 4.096 us x 2^T as perftest's -u (default: ${DEFAULT-VALUE}, about 1 s: N - 1 QPs a"
                    + " rank, all sending at once, may wait their turn on a loaded host).")
    int qpTimeout;

    @Option(names = "--json", description = "Print this rank's result as one JSON object.")
    boolean json;

    @CommandLine.Mixin
    DeviceOption device;

    @Override
    public Integer call() throws Exception {
        if (size < 1 || size > RendezvousSpec.MAX_SIZE) {
            throw ExitCodes.usage(spec, "--size " + size + " is out of range 1-" + RendezvousSpec.MAX_SIZE);
        }
        if ((rank == null) == (ranks == null)) {
            throw ExitCodes.usage(spec, "give --rank I (one rank) or --ranks LIST (several in this process)");
        }
        int[] local = ranks == null ? new int[] {rank} : parseRanks(ranks);
        if (ranks == null && device.name() != null && device.name().contains(",")) {
            throw ExitCodes.usage(spec, "-d takes a list of devices with --ranks only (rank i of the list on device i mod its length)");
        }
        MeshConfig config = config(local[0]);
        PrintWriter out = spec.commandLine().getOut();
        if (ranks == null) {
            MeshResult result = new MeshRun(config, org.jrdma.tools.Main.notices(spec)).run();
            out.println(json ? MeshReport.json(config, result) : MeshReport.text(config, result));
            out.flush();
            return ExitCodes.of(result.verified());
        }
        long[] heap = {0};
        java.util.List<MeshResult> results = LocalRanks.run(config, local, org.jrdma.tools.Main.notices(spec), heap);
        boolean all = true;
        if (json) {
            for (int i = 0; i < local.length; i++) {
                MeshConfig one = config.asRank(local[i]);
                out.println(MeshReport.json(one, results.get(i)));
                all &= results.get(i).verified();
            }
        } else {
            out.println(LocalRanks.text(config, local, results, heap[0]));
            all = results.stream().allMatch(MeshResult::verified);
        }
        out.flush();
        return ExitCodes.of(all);
    }

    /** "0-3,7": ascending, distinct, within the size. */
    private int[] parseRanks(String list) {
        java.util.TreeSet<Integer> set = new java.util.TreeSet<>();
        for (String part : list.split(",", -1)) {
            String[] ends = part.split("-", -1);
            try {
                int from = Integer.parseInt(ends[0].trim());
                int to = ends.length == 2 ? Integer.parseInt(ends[1].trim()) : from;
                if (ends.length > 2 || from > to || from < 0 || to >= size) {
                    throw new NumberFormatException();
                }
                for (int r = from; r <= to; r++) {
                    set.add(r);
                }
            } catch (NumberFormatException e) {
                throw ExitCodes.usage(spec, "--ranks " + list + ": '" + part + "' is not a rank or range within 0-" + (size - 1));
            }
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    private MeshConfig config(int rank) {
        if (rank < 0 || rank >= size) {
            throw ExitCodes.usage(spec, "--rank " + rank + " is out of range 0-" + (size - 1) + " for --size " + size);
        }
        if (slot < 8 || slot > (1 << 20)) {
            throw ExitCodes.usage(spec, "--slot-size " + slot + " is out of range 8-1048576");
        }
        if (timeoutMs <= 0 || leaseTtlMs < 1000 || requestTimeoutMs <= 0) {
            throw ExitCodes.usage(spec, "--timeout-ms and --request-timeout-ms must be positive, --lease-ttl-ms at least 1000");
        }
        RendezvousSpec rv;
        try {
            rv = new RendezvousSpec(job, rank, size, Duration.ofMillis(timeoutMs));
        } catch (InvalidFieldException e) {
            throw ExitCodes.usage(spec, "--" + e.getMessage());
        }
        StoreOptions options = StoreOptions.DEFAULTS.withLeaseTtl(Duration.ofMillis(leaseTtlMs))
                .withRequestTimeout(Duration.ofMillis(requestTimeoutMs));
        if (caCert != null || clientCert != null || clientKey != null) {
            if ((clientCert == null) != (clientKey == null)) {
                throw ExitCodes.usage(spec, "--cert and --key go together");
            }
            options = options.withTls(caCert, clientCert, clientKey);
        }
        if (user != null) {
            options = options.withAuth(user, password());
        } else if (passwordFile != null) {
            throw ExitCodes.usage(spec, "--password-file needs --user");
        }
        if (qpTimeout < 1 || qpTimeout > 31) {
            throw ExitCodes.usage(spec, "-u " + qpTimeout + " is out of range 1-31");
        }
        return new MeshConfig(store, rv, options, device.name(), gidIndex, slot, qpTimeout);
    }

    private String password() {
        if (passwordFile != null) {
            try {
                return Files.readAllLines(passwordFile, StandardCharsets.UTF_8).stream().findFirst().orElse("");
            } catch (IOException e) {
                throw ExitCodes.usage(spec, "cannot read --password-file " + passwordFile + ": " + e.getMessage());
            }
        }
        String env = System.getenv(PASSWORD_ENV);
        if (env == null) {
            throw ExitCodes.usage(spec, "--user " + user + " needs a password: --password-file FILE or " + PASSWORD_ENV);
        }
        return env;
    }
}
