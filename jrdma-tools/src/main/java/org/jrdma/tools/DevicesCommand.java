package org.jrdma.tools;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code jrdma devices}: the device list, as ibv_devices prints it (plus what each is), then one
 * line saying why native is not in use when it is not, and any provider passed over.
 */
@Command(name = "devices", mixinStandardHelpOptions = true, description = "List RDMA devices (like ibv_devices).")
public final class DevicesCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ProviderChoice.Choice choice = ProviderChoice.fromEnvironment().choose();
        List<Device> devices = choice.devices();
        out.printf("    %-16s\t%-16s\t%s%n", "device", "node GUID", "provider");
        out.printf("    %-16s\t%-16s\t%s%n", "------", "----------------", "--------");
        for (Device d : devices) {
            out.printf("    %-16s\t%016x\t%s: %s%n", d.name(), d.guid(), d.provider(), d.description());
        }
        ProviderNotes.print(choice, out, spec);
        return ExitCodes.of(!devices.isEmpty()); // no device listed: a failure (README: exit 1)
    }
}
