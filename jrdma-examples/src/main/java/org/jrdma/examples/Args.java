package org.jrdma.examples;

/**
 * The examples' command line, rc_pingpong's shape: {@code server [port]} or
 * {@code client host [port]}. A bad command line prints the usage and exits with status 2.
 *
 * @param host the server's host for the client, null for the server
 * @param port the TCP port (or the rdma_cm port); 0 lets a server pick a free one and say which
 */
record Args(String host, int port) {
    static Args parse(String program, String[] args, int defaultPort) {
        String usage = "usage: " + program + " server [port]  |  " + program + " client host [port]  (default port "
                + defaultPort + ")";
        boolean server = args.length >= 1 && args[0].equals("server") && args.length <= 2;
        boolean client = args.length >= 2 && args[0].equals("client") && args.length <= 3;
        if (!server && !client) {
            System.err.println(usage);
            System.exit(2);
        }
        int at = server ? 1 : 2;
        int port = defaultPort;
        if (args.length > at) {
            try {
                port = Integer.parseInt(args[at]);
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < (server ? 0 : 1) || port > 65535) {
                System.err.println(program + ": bad port '" + args[at] + "' (" + (server ? "0" : "1") + "..65535)");
                System.err.println(usage);
                System.exit(2);
            }
        }
        return new Args(server ? null : args[1], port);
    }

    boolean isServer() {
        return host == null;
    }
}
