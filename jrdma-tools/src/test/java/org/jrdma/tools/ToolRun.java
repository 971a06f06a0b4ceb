package org.jrdma.tools;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One {@code jrdma} command run in this JVM through {@link Main#run}, with its exit code and
 * what it printed: the tools' tests run commands this way, and a server and its client as a
 * pair ({@link #serverAndClient}).
 */
public record ToolRun(int code, String out, String err) {
    public static ToolRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new ToolRun(code, out.toString(), err.toString());
    }

    public static ToolRun of(List<String> args) {
        return of(args.toArray(String[]::new));
    }

    /**
     * The server command on another thread, the client on this one (the tools' clients retry
     * until their server listens); returns {server, client} once the server has ended too.
     */
    public static ToolRun[] serverAndClient(List<String> server, List<String> client, long serverSeconds) throws Exception {
        CompletableFuture<ToolRun> s = CompletableFuture.supplyAsync(() -> of(server));
        ToolRun c = of(client);
        return new ToolRun[] {s.get(serverSeconds, TimeUnit.SECONDS), c};
    }

    /**
     * stderr without the line a client says when its server does not listen yet ("… trying again
     * until …"): whether it comes depends on which side of a pair started first.
     */
    public String errBesidesRetrying() {
        return err.lines().filter(l -> !l.contains("; trying again until ")).map(l -> l + "\n")
                .collect(java.util.stream.Collectors.joining());
    }

    @Override
    public String toString() {
        return "exit " + code + "\n--- out ---\n" + out + "--- err ---\n" + err;
    }
}
