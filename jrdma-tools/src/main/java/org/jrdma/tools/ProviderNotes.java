package org.jrdma.tools;

import java.io.PrintWriter;
import org.jrdma.verbs.ProviderChoice;
import picocli.CommandLine;

/**
 * What {@code devices} and {@code devinfo} say below a device list about the provider choice:
 * the one line why native is not in use ({@code native: not in use: …}), on stdout with the
 * list, and each provider passed over because it failed, on stderr.
 */
final class ProviderNotes {
    private ProviderNotes() {
    }

    static void print(ProviderChoice.Choice choice, PrintWriter out, CommandLine.Model.CommandSpec spec) {
        if (choice.nativeLine() != null) {
            out.println(choice.nativeLine());
        }
        choice.failures().forEach(f -> Main.notices(spec).accept("provider passed over: " + f));
    }
}
