package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma devinfo}: device and port attributes, in ibv_devinfo's layout; when it shows every
 * device (no {@code -d}), the line why native is not in use follows, as in {@code jrdma devices}.
 */
@Command(name = "devinfo", mixinStandardHelpOptions = true, description = "Show device and port attributes (like ibv_devinfo).")
public final class DevinfoCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", description = "Only this device (default: all).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "Only this port (default: all).")
    Integer ibPort;

    @Option(names = {"-l", "--list"}, description = "Only list the device names.")
    boolean list;

    @Option(names = {"-v", "--verbose"}, description = "Also print the device limits and the device counters.")
    boolean verbose;

    @Option(names = "--json", description = "Print what the text shows as one JSON object: {\"devices\":[…],\"native\":…}; "
            + "with -l only the names ({\"devices\":[\"name\"…]}).")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ProviderChoice.Choice choice = ProviderChoice.fromEnvironment().choose();
        List<Device> devices = device == null ? choice.devices() : List.of(choice.device(device));
        if (json) {
            org.jrdma.tools.json.Json j = new org.jrdma.tools.json.Json().begin().beginArray("devices");
            for (Device d : devices) {
                if (list) {
                    j.element(d.name());
                } else {
                    try (Context ctx = d.openForQuery()) {
                        json(j, d, ctx);
                    }
                }
            }
            j.endArray();
            if (device == null) {
                j.field("native", choice.nativeNotInUse());
            }
            out.println(j.end());
            if (device == null) {
                choice.failures().forEach(f -> Main.notices(spec).accept("provider passed over: " + f));
            }
            return ExitCodes.of(!devices.isEmpty());
        }
        if (list) { // ibv_devinfo -l
            out.printf("%d HCA%s found:%n", devices.size(), devices.size() == 1 ? "" : "s");
            devices.forEach(d -> out.printf("\t%s%n", d.name()));
        } else {
            for (Device d : devices) {
                try (Context ctx = d.openForQuery()) { // a device another process uses is shown too, as ibv_devinfo shows a NIC
                    print(out, d, ctx);
                }
            }
        }
        if (device == null) {
            ProviderNotes.print(choice, out, spec);
        }
        return ExitCodes.of(!devices.isEmpty());
    }

    private void print(PrintWriter out, Device d, Context ctx) {
        DeviceAttr a = ctx.queryDevice();
        out.printf("hca_id:\t%s%n", d.name());
        out.printf("\ttransport:\t\t\tInfiniBand (0)%n");
        out.printf("\tprovider:\t\t\t%s (%s)%n", d.provider(), d.description());
        out.printf("\tfw_ver:\t\t\t\t%s%n", a.fwVer());
        out.printf("\tnode_guid:\t\t\t%s%n", guid(a.nodeGuid()));
        out.printf("\tsys_image_guid:\t\t\t%s%n", guid(a.sysImageGuid()));
        out.printf("\tvendor_id:\t\t\t0x%04x%n", a.vendorId());
        out.printf("\tvendor_part_id:\t\t\t%d%n", a.vendorPartId());
        out.printf("\thw_ver:\t\t\t\t0x%X%n", a.hwVer());
        out.printf("\tphys_port_cnt:\t\t\t%d%n", a.physPortCnt());
        if ("soft".equals(d.provider())) {
            // Which socket path the soft device's packets take here, and why (jrdma.soft.datagrams).
            org.jrdma.soft.net.DatagramsChoice c = org.jrdma.soft.net.DatagramsChoice.configured();
            out.printf("\tdatagrams:\t\t\t%s (%s=%s: %s)%n", c.path(), org.jrdma.soft.net.DatagramsChoice.PROPERTY,
                    c.setting(), c.reason());
        }
        if (verbose) {
            out.printf("\tmax_mr_size:\t\t\t0x%x%n", a.maxMrSize());
            out.printf("\tmax_qp:\t\t\t\t%d%n", a.maxQp());
            out.printf("\tmax_qp_wr:\t\t\t%d%n", a.maxQpWr());
            out.printf("\tmax_sge:\t\t\t%d%n", a.maxSge());
            out.printf("\tmax_cq:\t\t\t\t%d%n", a.maxCq());
            out.printf("\tmax_cqe:\t\t\t%d%n", a.maxCqe());
            out.printf("\tmax_mr:\t\t\t\t%d%n", a.maxMr());
            out.printf("\tmax_pd:\t\t\t\t%d%n", a.maxPd());
            out.printf("\tmax_qp_rd_atom:\t\t\t%d%n", a.maxQpRdAtom());
            out.printf("\tmax_qp_init_rd_atom:\t\t%d%n", a.maxQpInitRdAtom());
            out.printf("\tmax_inline_data:\t\t%d%n", a.maxInlineData());
            out.printf("\tmax_msg_sz:\t\t\t0x%x%n", a.maxMsgSize());
            out.printf("\tlocal_ca_ack_delay:\t\t%d%n", a.localCaAckDelay());
        }
        if (ibPort != null && (ibPort < 1 || ibPort > a.physPortCnt())) {
            throw ExitCodes.usage(spec,
                    "port " + ibPort + " does not exist on " + d.name() + " (ports 1.." + a.physPortCnt() + ")");
        }
        for (int port = 1; port <= a.physPortCnt(); port++) {
            if (ibPort != null && port != ibPort) {
                continue;
            }
            PortAttr p = ctx.queryPort(port);
            out.printf("\t\tport:\t%d%n", port);
            out.printf("\t\t\tstate:\t\t\tPORT_%s (%d)%n", p.state(), p.state().value());
            out.printf("\t\t\tmax_mtu:\t\t%d (%d)%n", p.maxMtu().bytes(), p.maxMtu().value());
            out.printf("\t\t\tactive_mtu:\t\t%d (%d)%n", p.activeMtu().bytes(), p.activeMtu().value());
            out.printf("\t\t\tsm_lid:\t\t\t%d%n", p.smLid());
            out.printf("\t\t\tport_lid:\t\t%d%n", p.lid());
            out.printf("\t\t\tport_lmc:\t\t0x00%n");
            out.printf("\t\t\tlink_layer:\t\t%s%n", p.linkLayer());
            for (int i = 0; i < p.gidTblLen(); i++) {
                out.printf("\t\t\tGID[%3d]:\t\t%s, RoCE v2%n", i, ctx.queryGid(port, i));
            }
        }
        if (verbose) {
            printCounters(out, d);
        }
        out.println();
    }

    /** The same as {@link #print}, as JSON: the text's names for keys, numbers as numbers. */
    private void json(org.jrdma.tools.json.Json j, Device d, Context ctx) {
        DeviceAttr a = ctx.queryDevice();
        j.begin().field("hca_id", d.name()).field("transport", "InfiniBand").field("provider", d.provider())
                .field("description", d.description()).field("fw_ver", a.fwVer()).field("node_guid", guid(a.nodeGuid()))
                .field("sys_image_guid", guid(a.sysImageGuid())).field("vendor_id", a.vendorId())
                .field("vendor_part_id", a.vendorPartId()).field("hw_ver", a.hwVer()).field("phys_port_cnt", a.physPortCnt());
        if ("soft".equals(d.provider())) {
            org.jrdma.soft.net.DatagramsChoice c = org.jrdma.soft.net.DatagramsChoice.configured();
            j.field("datagrams", String.valueOf(c.path()));
        }
        if (verbose) {
            j.field("max_mr_size", a.maxMrSize()).field("max_qp", a.maxQp()).field("max_qp_wr", a.maxQpWr())
                    .field("max_sge", a.maxSge()).field("max_cq", a.maxCq()).field("max_cqe", a.maxCqe())
                    .field("max_mr", a.maxMr()).field("max_pd", a.maxPd()).field("max_qp_rd_atom", a.maxQpRdAtom())
                    .field("max_qp_init_rd_atom", a.maxQpInitRdAtom()).field("max_inline_data", a.maxInlineData())
                    .field("max_msg_sz", a.maxMsgSize()).field("local_ca_ack_delay", a.localCaAckDelay());
        }
        if (ibPort != null && (ibPort < 1 || ibPort > a.physPortCnt())) {
            throw ExitCodes.usage(spec,
                    "port " + ibPort + " does not exist on " + d.name() + " (ports 1.." + a.physPortCnt() + ")");
        }
        j.beginArray("ports");
        for (int port = 1; port <= a.physPortCnt(); port++) {
            if (ibPort != null && port != ibPort) {
                continue;
            }
            PortAttr p = ctx.queryPort(port);
            j.begin().field("port", port).field("state", "PORT_" + p.state()).field("state_num", p.state().value())
                    .field("max_mtu", p.maxMtu().bytes()).field("active_mtu", p.activeMtu().bytes()).field("sm_lid", p.smLid())
                    .field("port_lid", p.lid()).field("port_lmc", 0).field("link_layer", String.valueOf(p.linkLayer()));
            j.beginArray("gids");
            for (int i = 0; i < p.gidTblLen(); i++) {
                j.begin().field("index", i).field("gid", String.valueOf(ctx.queryGid(port, i))).field("type", "RoCE v2").end();
            }
            j.endArray().end();
        }
        j.endArray();
        if (verbose) {
            java.util.Map<String, Long> c = d.counters();
            j.map("counters", c); // {} when the provider keeps none
        }
        j.end();
    }

    /**
     * The device counters, as {@code rdma statistic show link DEV/1} would list a NIC's: summed
     * over every process on this host that has the device open or had it open since the
     * counters' directory was made (a soft device lives in each process that uses it).
     */
    private static void printCounters(PrintWriter out, Device d) {
        java.util.Map<String, Long> c = d.counters();
        if (c.isEmpty()) {
            out.printf("\tcounters:\t\t\tnone kept by the %s provider%n", d.provider());
            return;
        }
        out.printf("\tcounters (all processes on this host):%n");
        c.forEach((name, value) -> out.printf("\t\t%-26s%d%n", name + ":", value));
    }

    private static String guid(long g) {
        return String.format("%04x:%04x:%04x:%04x", (g >>> 48) & 0xFFFF, (g >>> 32) & 0xFFFF, (g >>> 16) & 0xFFFF, g & 0xFFFF);
    }
}
