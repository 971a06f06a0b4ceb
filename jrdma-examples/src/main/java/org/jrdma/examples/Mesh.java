package org.jrdma.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.jrdma.bootstrap.RcConnection;
import org.jrdma.bootstrap.RcMesh;
import org.jrdma.bootstrap.RcOptions;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;
import org.jrdma.bootstrap.rendezvous.RendezvousStores;
import org.jrdma.bootstrap.rendezvous.StoreOptions;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.CompletionQueue;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.MemoryRegion;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.SendFlags;
import org.jrdma.verbs.SendWorkRequest;
import org.jrdma.verbs.Sge;
import org.jrdma.verbs.Verbs;
import org.jrdma.verbs.WrOpcode;

/**
 * N ranks meet in a rendezvous store and connect a full mesh: each RDMA-WRITEs a greeting into
 * its slot of every peer's region, and after a barrier reads what its peers wrote into its own.
 * {@code Mesh STORE JOB RANK SIZE}, one process per rank: {@code Mesh file:///tmp/meet demo 0 3}
 * (a shared directory), or {@code etcd://host:2379} with jrdma-etcd on the class path.
 */
public final class Mesh {
    static final int SLOT = 64;

    private Mesh() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: Mesh STORE-URI JOB RANK SIZE  (file:///dir or etcd://host:port; one process per rank)");
            System.exit(2);
        }
        int rank = Integer.parseInt(args[2]);
        String[] got = run(URI.create(args[0]), args[1], rank, Integer.parseInt(args[3]));
        for (int from = 0; from < got.length; from++) {
            System.out.println("Mesh rank " + rank + ": slot " + from + ": \"" + got[from] + "\"");
        }
    }

    /** One rank: returns, by writer, what each peer wrote into this rank's region ("" for its own slot). */
    static String[] run(URI storeUri, String job, int rank, int size) {
        try (Arena arena = Arena.ofShared(); Context ctx = Verbs.device(null).open()) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(2 * size, null);
            MemoryRegion mine = pd.registerMemory(arena.allocate((long) SLOT * size), AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE, arena);
            MemoryRegion out = pd.registerMemory(arena.allocate(SLOT), AccessFlags.LOCAL_WRITE, arena);
            // tag::mesh[]
            try (RendezvousStore store = RendezvousStores.open(storeUri, StoreOptions.DEFAULTS);
                    Rendezvous rv = store.join(new RendezvousSpec(job, rank, size, Duration.ofSeconds(60)));
                    RcMesh mesh = RcMesh.connect(pd, rv, RcOptions.defaults(cq).exposing(mine))) {
                rv.barrier("connected");                          // every rank's QPs are in RTS
                for (var peer : mesh.connections().entrySet()) {
                    byte[] hello = ("hello from rank " + rank + " to " + peer.getKey()).getBytes(StandardCharsets.UTF_8);
                    out.segment().fill((byte) 0).copyFrom(java.lang.foreign.MemorySegment.ofArray(hello));
                    RcConnection c = peer.getValue();
                    c.qp().postSend(new SendWorkRequest().wrId(peer.getKey()).opcode(WrOpcode.RDMA_WRITE)
                            .flags(SendFlags.SIGNALED).sg(Sge.of(out))
                            .rdma(c.remoteBuffer().address() + (long) rank * SLOT, c.remoteBuffer().rkey()));
                    Cq.next(cq, "the WRITE to rank " + peer.getKey());   // completed: it is in the peer's memory
                }
                rv.barrier("written");                            // every peer's WRITEs into us are done
            }
            // end::mesh[]
            String[] got = new String[size];
            for (int from = 0; from < size; from++) {
                byte[] slot = mine.segment().asSlice((long) from * SLOT, SLOT).toArray(ValueLayout.JAVA_BYTE);
                int end = 0;
                while (end < slot.length && slot[end] != 0) {
                    end++;
                }
                got[from] = new String(slot, 0, end, StandardCharsets.UTF_8);
            }
            return got;
        }
    }
}
