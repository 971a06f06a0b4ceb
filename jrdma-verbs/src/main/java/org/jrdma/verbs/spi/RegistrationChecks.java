package org.jrdma.verbs.spi;

import java.lang.foreign.MemorySegment;
import org.jrdma.verbs.AccessFlags;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.VerbsException;

/**
 * What every software provider refuses at ibv_reg_mr before it registers anything: heap memory
 * (it moves), memory confined to one thread (the provider's threads read and write it), a
 * segment at address 0 (the whole address space, not a buffer: SEC-48), unknown access bits,
 * remote write or atomic without local write (IBA 10.6.3.1), and the access bits the provider
 * does not implement.
 */
public final class RegistrationChecks {
    private static final Thread NOT_THE_OWNER = new Thread(() -> { }, "jrdma-reg-mr-probe");

    private RegistrationChecks() {
    }

    /**
     * Checks a registration.
     *
     * @param segment     the memory to register
     * @param access      its access flags
     * @param unsupported the access bits the provider refuses (EOPNOTSUPP)
     * @param provider    the provider's name, for the message ("soft", "shm")
     * @throws VerbsException EINVAL or EOPNOTSUPP naming what is wrong
     */
    public static void check(MemorySegment segment, int access, int unsupported, String provider) {
        if (!segment.isNative()) {
            throw new VerbsException(Errno.EINVAL,
                    "reg_mr: only native (off-heap) segments can be registered; heap memory moves (use an Arena)");
        }
        if (!segment.isAccessibleBy(NOT_THE_OWNER)) {
            // The provider works on its own threads and on whichever application thread polls or
            // posts: a confined segment would throw WrongThreadException there in mid-request.
            throw new VerbsException(Errno.EINVAL, "reg_mr: the segment is confined to one thread (Arena.ofConfined);"
                    + " the " + provider + " provider reads and writes it from other threads: use Arena.ofShared(), ofAuto()"
                    + " or global()");
        }
        if (segment.address() == 0) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: a segment at address 0 is the whole address space,"
                    + " not a buffer; register the buffers remote peers need");
        }
        if ((access & ~AccessFlags.ALL) != 0) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: unknown access bits 0x" + Integer.toHexString(access & ~AccessFlags.ALL));
        }
        if ((access & (AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0 && (access & AccessFlags.LOCAL_WRITE) == 0) {
            throw new VerbsException(Errno.EINVAL, "reg_mr: REMOTE_WRITE and REMOTE_ATOMIC need LOCAL_WRITE too");
        }
        if ((access & unsupported) != 0) {
            throw new VerbsException(Errno.EOPNOTSUPP, "reg_mr: " + AccessFlags.toString(access & unsupported)
                    + " not supported by the " + provider + " provider");
        }
    }
}
