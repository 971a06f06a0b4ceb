package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jrdma devices}: the device list, as ibv_devices prints it (plus what each is), then one
 * line saying why native is not in use when it is not, and any provider passed over.
 */
@Command(name = "devices", mixinStandardHelpOptions = true, description = "List RDMA devices (like ibv_devices).")
public final class DevicesCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--json", description = "Print the list as one JSON object: "
            + "{\"devices\":[{\"name\",\"node_guid\",\"provider\",\"description\"}…],\"native\":why not in use, or null}.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ProviderChoice.Choice choice = ProviderChoice.fromEnvironment().choose();
        List<Device> devices = choice.devices();
        if (json) {
            org.jrdma.tools.json.Json j = new org.jrdma.tools.json.Json().begin().beginArray("devices");
            for (Device d : devices) {
                j.begin().field("name", d.name()).field("node_guid", String.format("%016x", d.guid()))
                        .field("provider", d.provider()).field("description", d.description()).end();
            }
            out.println(j.endArray().field("native", choice.nativeNotInUse()).end());
            choice.failures().forEach(f -> Main.notices(spec).accept("provider passed over: " + f));
            return ExitCodes.of(!devices.isEmpty());
        }
        out.printf("    %-16s\t%-16s\t%s%n", "device", "node GUID", "provider");
        out.printf("    %-16s\t%-16s\t%s%n", "------", "----------------", "--------");
        for (Device d : devices) {
            out.printf("    %-16s\t%016x\t%s: %s%n", d.name(), d.guid(), d.provider(), d.description());
        }
        ProviderNotes.print(choice, out, spec);
        return ExitCodes.of(!devices.isEmpty()); // no device listed: a failure (README: exit 1)
    }
}
