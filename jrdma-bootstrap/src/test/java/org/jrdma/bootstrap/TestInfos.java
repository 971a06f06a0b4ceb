package org.jrdma.bootstrap;

import java.net.InetAddress;
import org.jrdma.verbs.Gid;

/** Connection infos from the rc_pingpong capture in conformance/rxe/rc_pingpong.oob.txt. */
public final class TestInfos {
    /** Frame 4 (client 10.77.0.3 → server): {@code 0000:000012:e3de62:…ffff0a4d0003}. */
    public static final ConnInfo CLIENT = new ConnInfo(0, 0x12, 0xe3de62, gid("10.77.0.3"));
    /** Frame 6 (server 10.77.0.2 → client): {@code 0000:000017:e7692a:…ffff0a4d0002}. */
    public static final ConnInfo SERVER = new ConnInfo(0, 0x17, 0xe7692a, gid("10.77.0.2"));

    private TestInfos() {
    }

    public static Gid gid(String ipLiteral) {
        return Gid.of(InetAddress.ofLiteral(ipLiteral));
    }
}
