package org.jrdma.cm;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Verbs;

/**
 * How the CM behaves: its timers, the devices it may use and how MADs travel.
 *
 * @param responseTimeout how long a REQ, REP, DREQ or SIDR_REQ waits for its answer before it
 *     is sent again; the kernel's is 2 × 2^(16−8) + 2^(20−8) = 4608 ms (§7.9)
 * @param maxRetries how often it is sent again before the CM gives up (UNREACHABLE, or a
 *     DISCONNECTED with ETIMEDOUT); the kernel's is 15
 * @param timewait how long a disconnected connection stays in timewait (answering a repeated
 *     DREQ with a DREP) before TIMEWAIT_EXIT; the kernel's is the local ACK timeout of the
 *     path, 4.096 µs × 2^17 ≈ 537 ms (cm_enter_timewait)
 * @param destroyTimeout how long {@link CmId#close()} waits for the id's events to be acked
 * @param devices the devices the CM may bind to (by default every device {@link Verbs} lists)
 * @param madPorts opens a device's MAD port (by default its GSI QP)
 */
public record CmOptions(Duration responseTimeout, int maxRetries, Duration timewait, Duration destroyTimeout,
        Supplier<List<Device>> devices, MadPort.Factory madPorts) {

    /**
     * Checks the timers.
     *
     * @throws IllegalArgumentException if {@code responseTimeout} is not positive,
     *     {@code maxRetries} is outside 0..15 or {@code timewait} is negative
     */
    public CmOptions {
        if (responseTimeout.isNegative() || responseTimeout.isZero()) {
            throw new IllegalArgumentException("responseTimeout must be positive: " + responseTimeout);
        }
        if (maxRetries < 0 || maxRetries > 15) {
            throw new IllegalArgumentException("maxRetries is 0..15 (a 4-bit field): " + maxRetries);
        }
        if (timewait.isNegative()) {
            throw new IllegalArgumentException("timewait must not be negative: " + timewait);
        }
    }

    /**
     * The kernel's timers, every device Verbs lists that has a GSI QP and an IP address (not the
     * shm provider's: it has neither), MADs on each device's GSI QP.
     *
     * @return the defaults
     */
    public static CmOptions defaults() {
        return new CmOptions(Duration.ofMillis(4608), 15, Duration.ofMillis(537), Duration.ofSeconds(10),
                CmOptions::addressedDevices, GsiMadPort::open);
    }

    private static java.util.List<org.jrdma.verbs.Device> addressedDevices() {
        return Verbs.deviceList().stream().filter(d -> !"shm".equals(d.provider())).toList();
    }

    /**
     * A copy with another response timeout.
     *
     * @param t how long a request waits for its answer; positive
     * @return the copy
     */
    public CmOptions responseTimeout(Duration t) {
        return new CmOptions(t, maxRetries, timewait, destroyTimeout, devices, madPorts);
    }

    /**
     * A copy with another retry count.
     *
     * @param n how often a request is resent, 0..15
     * @return the copy
     */
    public CmOptions maxRetries(int n) {
        return new CmOptions(responseTimeout, n, timewait, destroyTimeout, devices, madPorts);
    }

    /**
     * A copy with another timewait.
     *
     * @param t how long a disconnected connection stays in timewait; not negative
     * @return the copy
     */
    public CmOptions timewait(Duration t) {
        return new CmOptions(responseTimeout, maxRetries, t, destroyTimeout, devices, madPorts);
    }

    /**
     * A copy with another destroy timeout.
     *
     * @param t how long {@link CmId#close()} waits for the id's events to be acked
     * @return the copy
     */
    public CmOptions destroyTimeout(Duration t) {
        return new CmOptions(responseTimeout, maxRetries, timewait, t, devices, madPorts);
    }

    /**
     * A copy with other devices.
     *
     * @param d lists the devices the CM may bind to
     * @return the copy
     */
    public CmOptions devices(Supplier<List<Device>> d) {
        return new CmOptions(responseTimeout, maxRetries, timewait, destroyTimeout, d, madPorts);
    }

    /**
     * A copy that sends and receives MADs another way.
     *
     * @param f opens a device's MAD port
     * @return the copy
     */
    public CmOptions madPorts(MadPort.Factory f) {
        return new CmOptions(responseTimeout, maxRetries, timewait, destroyTimeout, devices, f);
    }
}
