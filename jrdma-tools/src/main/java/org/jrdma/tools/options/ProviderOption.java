package org.jrdma.tools.options;

import org.jrdma.verbs.ProviderChoice;
import org.jrdma.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --provider}, on every tool (mixed into the {@code jrdma} command and inherited:
 * {@code jrdma devices --provider soft}): the same choice as JRDMA_PROVIDER, made for this run
 * by setting {@code jrdma.provider}, which wins over the environment — so everything that lists
 * devices in this process (the connection manager too) sees it. {@code Main.run} puts the
 * property back afterwards.
 */
public final class ProviderOption {
    @Option(names = "--provider", paramLabel = "auto|soft|native", scope = CommandLine.ScopeType.INHERIT,
            converter = ProviderMode.class,
            description = "Whose devices to use: auto (native's when there are any, else soft's), soft or native;"
                    + " overrides JRDMA_PROVIDER for this run (default: JRDMA_PROVIDER, else auto).")
    void provider(ProviderChoice.Mode mode) {
        System.setProperty(ProviderChoice.PROPERTY, mode.text());
    }

    /** {@code --provider}'s value; a wrong one is a usage error of the tool it was given to. */
    static final class ProviderMode implements CommandLine.ITypeConverter<ProviderChoice.Mode> {
        @Override
        public ProviderChoice.Mode convert(String value) {
            try {
                return ProviderChoice.Mode.parse(value, "--provider");
            } catch (VerbsException e) {
                throw new CommandLine.TypeConversionException("unknown provider '" + value + "'; use auto, soft or native");
            }
        }
    }
}
