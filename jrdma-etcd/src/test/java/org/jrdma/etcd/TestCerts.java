package org.jrdma.etcd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, made with the
 * openssl command (EC P-256, keys in PKCS#8 PEM as the store's options want them).
 */
public record TestCerts(Path ca, Path serverCert, Path serverKey, Path clientCert, Path clientKey) {
    /**
     * Whether an openssl command is on the PATH (or at /usr/bin/openssl).
     *
     * @return true if certificates can be made
     */
    public static boolean available() {
        return Files.isExecutable(Path.of("/usr/bin/openssl"));
    }

    /**
     * Makes the CA and both certificates in {@code dir}.
     *
     * @param dir an existing directory
     * @return the files
     * @throws IOException if openssl fails
     */
    public static TestCerts make(Path dir) throws IOException {
        Path caKey = dir.resolve("ca.key");
        Path ca = dir.resolve("ca.pem");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", caKey.toString(), "-out", ca.toString(), "-days", "2", "-subj", "/CN=jrdma test CA");
        Path[] server = leaf(dir, "server", caKey, ca, "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n");
        Path[] client = leaf(dir, "client", caKey, ca, "extendedKeyUsage=clientAuth\n");
        return new TestCerts(ca, server[0], server[1], client[0], client[1]);
    }

    private static Path[] leaf(Path dir, String name, Path caKey, Path ca, String extensions) throws IOException {
        Path key = dir.resolve(name + ".key");
        Path csr = dir.resolve(name + ".csr");
        Path cert = dir.resolve(name + ".pem");
        Path ext = dir.resolve(name + ".ext");
        Files.writeString(ext, extensions, UTF_8);
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=jrdma test " + name);
        openssl(dir, "x509", "-req", "-in", csr.toString(), "-CA", ca.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", "2", "-extfile", ext.toString());
        return new Path[] {cert, key};
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/openssl"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("openssl " + String.join(" ", args) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running openssl", e);
        }
    }
}
