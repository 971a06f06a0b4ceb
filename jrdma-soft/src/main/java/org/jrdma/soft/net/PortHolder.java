package org.jrdma.soft.net;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who holds a UDP port that a soft device could not bind, read from Linux's socket tables
 * ({@code /proc/net/udp}, {@code /proc/net/udp6}): the device's own address (another jrdma
 * process — any other 127.0.0.N will do), or the wildcard address {@code 0.0.0.0}/{@code ::},
 * which takes the port on every local address at once. That is what Linux's RoCE stack does:
 * rdma_rxe (and a RoCE NIC's driver) opens a kernel socket on 0.0.0.0:4791, and then no soft
 * device can bind 4791 on this host, whatever address it picks. A kernel socket belongs to no
 * process: no {@code /proc/<pid>/fd} links to its inode.
 *
 * @param kind what kind of holder
 * @param address the address the holding socket is bound to (the wildcard, or the wanted one); null when FREE
 * @param owner "process 4242 (name)" when a process holds it; null when no process does, or it cannot be told
 * @param kernel true when no process holds the socket and the kernel's RoCE is the holder: every
 *     process's descriptors were seen, or rdma_rxe / an RDMA device is present
 */
public record PortHolder(Kind kind, InetAddress address, int port, String owner, boolean kernel) {
    /** What holds the port. */
    public enum Kind {
        /** Nothing in the tables (the bind failed for another reason, or the holder went away). */
        FREE,
        /** A socket on the very address asked for. */
        SAME_ADDRESS,
        /** A socket on 0.0.0.0 or ::, which holds the port on every address. */
        WILDCARD
    }

    /** Finds the process that has a socket inode open. */
    public interface SocketOwners {
        /** "process 4242 (name)" for the process with a descriptor on socket {@code inode}, if any. */
        Optional<String> owner(long inode);

        /** Whether every process's descriptors could be read (root), so that "none" means the kernel. */
        boolean sawEveryProcess();
    }

    /** Diagnoses {@code wanted:port} from this host's tables, processes and RDMA devices. */
    public static PortHolder diagnose(InetAddress wanted, int port) {
        return diagnose(wanted, port, read(Path.of("/proc/net/udp")), read(Path.of("/proc/net/udp6")), ProcFd.scan(),
                kernelRdmaPresent());
    }

    /**
     * Diagnoses {@code wanted:port} from the text of {@code /proc/net/udp} and {@code /proc/net/udp6}
     * (empty when absent). The wanted address's own family is searched; an IPv4 address also
     * meets a dual-stack {@code ::} socket.
     */
    public static PortHolder diagnose(InetAddress wanted, int port, String udp, String udp6, SocketOwners owners,
            boolean kernelRdma) {
        boolean v6 = wanted instanceof Inet6Address;
        List<Entry> entries = new ArrayList<>(v6 ? List.of() : parse(udp, false, port));
        entries.addAll(parse(udp6, true, port));
        // The wildcard of the wanted family holds the port for sure; an IPv6 wildcard holds an
        // IPv4 port only when it is dual-stack, which the table does not say: it comes last.
        Entry exact = null;
        Entry wildcard = null;
        Entry dualStack = null;
        for (Entry e : entries) {
            if (e.address.equals(wanted)) {
                exact = e;
            } else if (e.address.isAnyLocalAddress()) {
                if (e.v6 == v6) {
                    wildcard = wildcard == null ? e : wildcard;
                } else {
                    dualStack = dualStack == null ? e : dualStack;
                }
            }
        }
        if (wildcard == null && exact == null) {
            wildcard = dualStack;
        }
        Entry holder = wildcard != null ? wildcard : exact;
        if (holder == null) {
            return new PortHolder(Kind.FREE, null, port, null, false);
        }
        Optional<String> owner = owners.owner(holder.inode);
        boolean kernel = owner.isEmpty() && (owners.sawEveryProcess() || kernelRdma);
        return new PortHolder(wildcard != null ? Kind.WILDCARD : Kind.SAME_ADDRESS, holder.address, port, owner.orElse(null),
                kernel);
    }

    /**
     * What holds the port and what to do, for the bind error: null when nothing does (the
     * caller's own advice stands).
     */
    public String explain() {
        if (kind == Kind.FREE) {
            return null;
        }
        String where = (address instanceof Inet6Address ? "[" + org.jrdma.verbs.Gid.of(address) + "]" : address.getHostAddress())
                + ":" + port;
        return switch (kind) {
            case FREE -> null;
            case SAME_ADDRESS -> "UDP " + where + " is bound by " + (owner != null ? owner : "another program");
            case WILDCARD -> {
                String head = "UDP " + where + " — the port on every local address — is bound by ";
                if (owner != null) {
                    yield head + owner + ", so no soft device can use " + port + " on this host: stop it, or have it"
                            + " bind one address";
                }
                String fix = "remove its RoCE link (`rdma link show`, then `rdma link delete <link>`) or unload"
                        + " rdma_rxe, or run jrdma in another network namespace (`ip netns exec`)";
                if (kernel) {
                    yield head + "the kernel: Linux's RoCE (rdma_rxe or a RoCE NIC's driver) listens there, so no soft"
                            + " device can use " + port + " on this host; " + fix;
                }
                yield head + "a process of another user or by the kernel's RoCE (rdma_rxe); `sudo ss -ulpn 'sport = :"
                        + port + "'` names a process (none listed: the kernel's — " + fix + ")";
            }
        };
    }

    // ------------------------------------------------------------------ the tables

    /** One socket of the table bound to the port. */
    private record Entry(InetAddress address, long inode, boolean v6) {
    }

    /**
     * The sockets bound to {@code port} in one table. Each line: {@code sl local_address
     * rem_address st … uid timeout inode …}, the address in hex as the kernel holds it (32-bit
     * words in host byte order), the port in hex. Malformed lines are skipped.
     */
    static List<Entry> parse(String table, boolean v6, int port) {
        List<Entry> out = new ArrayList<>();
        for (String line : table.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 10 || !f[0].endsWith(":")) {
                continue; // the header, or not a socket line
            }
            int colon = f[1].indexOf(':');
            try {
                if (colon < 0 || Integer.parseInt(f[1].substring(colon + 1), 16) != port) {
                    continue;
                }
                InetAddress a = address(f[1].substring(0, colon), v6);
                if (a != null) {
                    out.add(new Entry(a, Long.parseLong(f[9]), v6));
                }
            } catch (NumberFormatException e) {
                // not a line we understand
            }
        }
        return out;
    }

    private static InetAddress address(String hex, boolean v6) {
        int words = v6 ? 4 : 1;
        if (hex.length() != 8 * words) {
            return null;
        }
        byte[] b = new byte[4 * words];
        boolean little = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        for (int w = 0; w < words; w++) {
            int v = (int) Long.parseLong(hex.substring(8 * w, 8 * w + 8), 16);
            if (little) {
                v = Integer.reverseBytes(v);
            }
            b[4 * w] = (byte) (v >>> 24);
            b[4 * w + 1] = (byte) (v >>> 16);
            b[4 * w + 2] = (byte) (v >>> 8);
            b[4 * w + 3] = (byte) v;
        }
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException | RuntimeException e) {
            return ""; // not Linux, or no IPv6: nothing to find there
        }
    }

    /** rdma_rxe loaded, or any RDMA device (a RoCE NIC) registered with the kernel. */
    static boolean kernelRdmaPresent() {
        if (Files.isDirectory(Path.of("/sys/module/rdma_rxe"))) {
            return true;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/sys/class/infiniband"))) {
            return ds.iterator().hasNext();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The socket inodes every readable {@code /proc/<pid>/fd} links to. */
    private record ProcFd(Map<Long, String> owners, boolean complete) implements SocketOwners {
        static ProcFd scan() {
            Map<Long, String> owners = new HashMap<>();
            boolean complete = true;
            try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path proc : procs) {
                    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
                        for (Path fd : fds) {
                            String target = readLink(fd);
                            if (target != null && target.startsWith("socket:[") && target.endsWith("]")) {
                                owners.putIfAbsent(Long.parseLong(target.substring(8, target.length() - 1)), describe(proc));
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        complete &= !Files.exists(proc); // a process that ended meanwhile hides nothing
                    }
                }
            } catch (IOException | RuntimeException e) {
                complete = false;
            }
            return new ProcFd(owners, complete);
        }

        @Override
        public Optional<String> owner(long inode) {
            return Optional.ofNullable(owners.get(inode));
        }

        @Override
        public boolean sawEveryProcess() {
            return complete;
        }

        private static String readLink(Path fd) {
            try {
                return Files.readSymbolicLink(fd).toString();
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private static String describe(Path proc) {
            String name;
            try {
                name = Files.readString(proc.resolve("comm")).strip();
            } catch (IOException | RuntimeException e) {
                name = "?";
            }
            return "process " + proc.getFileName() + " (" + name + ")";
        }
    }
}
