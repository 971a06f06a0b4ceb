package org.jrdma.ibv.ffi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.jrdma.ibv.ffi.IbvLayouts.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jrdma.ibv.ffi.Ibv.Fn;
import org.jrdma.verbs.DeviceAttr;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.Gid;
import org.jrdma.verbs.Mtu;
import org.jrdma.verbs.PortAttr;
import org.jrdma.verbs.PortState;
import org.jrdma.verbs.VerbsException;

/**
 * The control-path verbs on raw handles: each call allocates its temporaries in a confined arena,
 * checks the result and turns a failure into a {@link VerbsException} naming the verb and errno.
 * Handles are the {@link MemorySegment}s libibverbs returned (zero-length, address only); the
 * classes of {@code org.jrdma.ibv} own them and never read through them.
 *
 * <p>Over 400 lines because it is one short method per control-path verb (about forty, each:
 * allocate, call, check, throw); grouping them differently would only hide which verbs exist.
 */
public final class IbvCalls {
    private IbvCalls() {
    }

    /** One entry of ibv_get_device_list. */
    public record DeviceEntry(MemorySegment device, String name, long guid) {
    }

    private static final int ENOSYS = 38;
    private static List<DeviceEntry> devices;

    /**
     * ibv_get_device_list, once per process: the list is kept (never freed), so that its
     * ibv_device pointers stay valid for every later ibv_open_device.
     */
    public static synchronized List<DeviceEntry> deviceList() {
        if (devices != null) {
            return devices;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment count = a.allocate(JAVA_INT);
            MemorySegment list = (MemorySegment) Fn.ibv_get_device_list$mh.invokeExact(state, count);
            if (list.equals(MemorySegment.NULL)) {
                int e = Ibv.errno(state);
                if (e == ENOSYS) {
                    // no uverbs in the kernel (no /sys/class/infiniband_verbs): no device at all
                    devices = List.of();
                    return devices;
                }
                throw Native.failure("ibv_get_device_list", e);
            }
            int n = count.get(JAVA_INT, 0);
            MemorySegment array = list.reinterpret(ADDRESS.byteSize() * n);
            List<DeviceEntry> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                MemorySegment dev = array.getAtIndex(ADDRESS, i);
                MemorySegment name = (MemorySegment) Fn.ibv_get_device_name$mh.invokeExact(dev);
                long guidBe = (long) Fn.ibv_get_device_guid$mh.invokeExact(dev);
                out.add(new DeviceEntry(dev, name.reinterpret(64).getString(0, StandardCharsets.US_ASCII),
                        Long.reverseBytes(guidBe)));
            }
            devices = List.copyOf(out);
            return devices;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    public static MemorySegment openDevice(MemorySegment device, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment ctx = (MemorySegment) Fn.ibv_open_device$mh.invokeExact(state, device);
            if (ctx.equals(MemorySegment.NULL)) {
                throw Native.failure("ibv_open_device " + name, Ibv.errno(state));
            }
            return ctx;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    public static int closeDevice(MemorySegment ctx) {
        try {
            return (int) Fn.ibv_close_device$mh.invokeExact(ctx);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The context's async_fd (for the async-event wait). */
    public static int asyncFd(MemorySegment ctx) {
        return ctx.reinterpret(IbvLayouts.IBV_CONTEXT.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_CONTEXT, "async_fd"));
    }

    public static DeviceAttr queryDevice(MemorySegment ctx) {
        StructLayout l = IbvLayouts.IBV_DEVICE_ATTR;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment attr = a.allocate(l);
            int rc = (int) Fn.ibv_query_device$mh.invokeExact(state, ctx, attr);
            check("ibv_query_device", rc, state);
            return new DeviceAttr(attr.getString(0, StandardCharsets.US_ASCII),
                    Long.reverseBytes(attr.get(JAVA_LONG, offset(l, "node_guid"))),
                    Long.reverseBytes(attr.get(JAVA_LONG, offset(l, "sys_image_guid"))),
                    unsignedCapped(attr.get(JAVA_LONG, offset(l, "max_mr_size"))), i32(attr, l, "vendor_id"),
                    i32(attr, l, "vendor_part_id"), i32(attr, l, "hw_ver"), i32(attr, l, "max_qp"),
                    i32(attr, l, "max_qp_wr"), i32(attr, l, "max_sge"), i32(attr, l, "max_cq"),
                    i32(attr, l, "max_cqe"), i32(attr, l, "max_mr"), i32(attr, l, "max_pd"),
                    i32(attr, l, "max_qp_rd_atom"), i32(attr, l, "max_qp_init_rd_atom"),
                    // ibv_device_attr has no max_inline_data: it is per QP (granted at create)
                    0, 1L << 31, u8(attr, l, "local_ca_ack_delay"), u8(attr, l, "phys_port_cnt"));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** ibv_device_attr.device_cap_flags (IBV_DEVICE_* bits). */
    public static int deviceCapFlags(MemorySegment ctx) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment attr = a.allocate(IbvLayouts.IBV_DEVICE_ATTR);
            int rc = (int) Fn.ibv_query_device$mh.invokeExact(state, ctx, attr);
            check("ibv_query_device", rc, state);
            return i32(attr, IbvLayouts.IBV_DEVICE_ATTR, "device_cap_flags");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** ___ibv_query_port: the extended context's query_port with sizeof(struct ibv_port_attr), else the compat symbol. */
    public static PortAttr queryPort(MemorySegment ctx, Ops ops, int port) {
        StructLayout l = IbvLayouts.IBV_PORT_ATTR;
        checkPort(port);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(l);
            int rc;
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            if (!ops.queryPort.equals(MemorySegment.NULL)) {
                rc = (int) Ops.QUERY_PORT$mh.invokeExact(ops.queryPort, ctx, (byte) port, attr, l.byteSize());
                state = null;
            } else {
                rc = (int) Fn.ibv_query_port$mh.invokeExact(state, ctx, (byte) port, attr);
            }
            check("ibv_query_port " + port, rc, state);
            int linkLayer = u8(attr, l, "link_layer");
            return new PortAttr(portState(i32(attr, l, "state")), mtu(i32(attr, l, "max_mtu")),
                    mtu(i32(attr, l, "active_mtu")), i32(attr, l, "gid_tbl_len"),
                    Short.toUnsignedInt(attr.get(JAVA_SHORT, offset(l, "lid"))),
                    Short.toUnsignedInt(attr.get(JAVA_SHORT, offset(l, "sm_lid"))),
                    // IBV_LINK_LAYER_UNSPECIFIED 0 (= InfiniBand, ibv_devinfo), INFINIBAND 1, ETHERNET 2
                    linkLayer == 2 ? "Ethernet" : "InfiniBand", i32(attr, l, "max_msg_sz"));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    public static Gid queryGid(MemorySegment ctx, int port, int index) {
        checkPort(port);
        if (index < 0) {
            throw new VerbsException(Errno.EINVAL, "ibv_query_gid: GID index " + index + " is negative");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment gid = a.allocate(16);
            int rc = (int) Fn.ibv_query_gid$mh.invokeExact(state, ctx, (byte) port, index, gid);
            check("ibv_query_gid port " + port + " index " + index, rc, state);
            return Gid.of(gid.toArray(JAVA_BYTE));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private static void checkPort(int port) {
        if (port < 1 || port > 255) {
            throw new VerbsException(Errno.EINVAL, "port " + port + " outside 1..255 (ibverbs numbers ports from 1)");
        }
    }

    /** A pointer-returning call with errno captured: {@code call} is {@code state -> pointer}. */
    public interface PointerCall {
        MemorySegment call(MemorySegment state) throws Throwable;
    }

    /** Runs a pointer-returning call; NULL becomes a VerbsException naming {@code verb} and errno. */
    public static MemorySegment pointer(String verb, PointerCall call) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment p = call.call(state);
            if (p.equals(MemorySegment.NULL)) {
                int e = Ibv.errno(state);
                throw Native.failure(verb, e == 0 ? 12 : e);
            }
            return p;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** An int-returning call with errno captured. */
    public interface IntCall {
        int call(MemorySegment state) throws Throwable;
    }

    /** Runs an int-returning call; non-zero becomes a VerbsException naming {@code verb} and errno. */
    public static void status(String verb, IntCall call) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int rc = call.call(state);
            check(verb, rc, state);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The errno of an int-returning call, 0 on success (for close paths that must not throw). */
    public static int statusQuiet(IntCall call) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            int rc = call.call(state);
            return rc == 0 ? 0 : Native.errnoOfReturn(rc, state);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** ibv_is_fork_initialized (enum ibv_fork_status), or -1 when the library predates it. */
    public static int forkStatus() {
        if (Fn.ibv_is_fork_initialized$mh == null) {
            return -1;
        }
        try {
            return (int) Fn.ibv_is_fork_initialized$mh.invokeExact();
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- fields of objects libibverbs allocated ---------------------------------------------------

    public static int mrLkey(MemorySegment mr) {
        return mr.reinterpret(IbvLayouts.IBV_MR.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_MR, "lkey"));
    }

    public static int mrRkey(MemorySegment mr) {
        return mr.reinterpret(IbvLayouts.IBV_MR.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_MR, "rkey"));
    }

    public static int mwRkey(MemorySegment mw) {
        return mw.reinterpret(IbvLayouts.IBV_MW.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_MW, "rkey"));
    }

    /**
     * Writes a type-2 window's new rkey into ibv_mw.rkey after its BIND_MW is posted: libibverbs
     * leaves that to the application, and the provider names the window by this field in the next
     * bind or invalidate (rxe's rxe_bind_mw refuses a bind whose mw_rkey is not the current one).
     */
    public static void setMwRkey(MemorySegment mw, int rkey) {
        mw.reinterpret(IbvLayouts.IBV_MW.byteSize()).set(JAVA_INT, offset(IbvLayouts.IBV_MW, "rkey"), rkey);
    }

    public static int cqCqe(MemorySegment cq) {
        return cq.reinterpret(IbvLayouts.IBV_CQ.byteSize()).get(JAVA_INT, offset(IbvLayouts.IBV_CQ, "cqe"));
    }

    public static int channelFd(MemorySegment channel) {
        return channel.reinterpret(IbvLayouts.IBV_COMP_CHANNEL.byteSize())
                .get(JAVA_INT, offset(IbvLayouts.IBV_COMP_CHANNEL, "fd"));
    }

    /**
     * ibv_reg_mr as verbs.h's macro does it: through ibv_reg_mr_iova2 (iova = the address) when the
     * library has it, else the plain symbol.
     */
    public static MemorySegment regMr(MemorySegment pd, MemorySegment memory, int access) {
        long length = memory.byteSize();
        return pointer("ibv_reg_mr", state -> Fn.ibv_reg_mr_iova2$mh != null
                ? (MemorySegment) Fn.ibv_reg_mr_iova2$mh.invokeExact(state, pd, memory, length, memory.address(), access)
                : (MemorySegment) Fn.ibv_reg_mr$mh.invokeExact(state, pd, memory, length, access));
    }

    public static int deregMr(MemorySegment mr) {
        return statusQuiet(state -> (int) Fn.ibv_dereg_mr$mh.invokeExact(state, mr));
    }

    /** ibv_alloc_mw (static inline: ops.alloc_mw, EOPNOTSUPP when the slot is empty). */
    public static MemorySegment allocMw(Ops ops, MemorySegment pd, int type) {
        if (ops.allocMw.equals(MemorySegment.NULL)) {
            throw Native.failure("ibv_alloc_mw", 95);
        }
        return pointer("ibv_alloc_mw", state -> (MemorySegment) Ops.ALLOC_MW$mh.invokeExact(ops.allocMw, state, pd, type));
    }

    /** ibv_dealloc_mw (static inline: ops.dealloc_mw); returns the errno. */
    public static int deallocMw(Ops ops, MemorySegment mw) {
        try {
            return (int) Ops.DEALLOC_MW$mh.invokeExact(ops.deallocMw, mw);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * ibv_bind_mw for a type-1 window (static inline: ops.bind_mw) with a struct ibv_mw_bind built
     * here; returns the window's new rkey, which the provider wrote into mw->rkey.
     */
    public static int bindMw(Ops ops, MemorySegment qp, MemorySegment mw, long wrId, int sendFlags, MemorySegment mr,
            long addr, long length, int access) {
        StructLayout l = IbvLayouts.IBV_MW_BIND;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment b = a.allocate(l);
            b.set(JAVA_LONG, offset(l, "wr_id"), wrId);
            b.set(JAVA_INT, offset(l, "send_flags"), sendFlags);
            b.set(ADDRESS, offset(l, "bind_info.mr"), mr);
            b.set(JAVA_LONG, offset(l, "bind_info.addr"), addr);
            b.set(JAVA_LONG, offset(l, "bind_info.length"), length);
            b.set(JAVA_INT, offset(l, "bind_info.mw_access_flags"), access);
            int rc = (int) Ops.BIND_MW$mh.invokeExact(ops.bindMw, qp, mw, b);
            if (rc != 0) {
                throw Native.failure("ibv_bind_mw", rc < 0 ? -rc : rc);
            }
            return mwRkey(mw);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    // ---- SRQ ----------------------------------------------------------------------------------------

    public static MemorySegment createSrq(MemorySegment pd, int maxWr, int maxSge, int limit) {
        StructLayout l = IbvLayouts.IBV_SRQ_INIT_ATTR;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment init = a.allocate(l);
            init.set(JAVA_INT, offset(l, "attr") + offset(IbvLayouts.IBV_SRQ_ATTR, "max_wr"), maxWr);
            init.set(JAVA_INT, offset(l, "attr") + offset(IbvLayouts.IBV_SRQ_ATTR, "max_sge"), maxSge);
            init.set(JAVA_INT, offset(l, "attr") + offset(IbvLayouts.IBV_SRQ_ATTR, "srq_limit"), limit);
            return pointer("ibv_create_srq", state -> (MemorySegment) Fn.ibv_create_srq$mh.invokeExact(state, pd, init));
        }
    }

    /** ibv_modify_srq with IBV_SRQ_LIMIT ({@code 1 << 1}). */
    public static void modifySrqLimit(MemorySegment srq, int limit) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvLayouts.IBV_SRQ_ATTR);
            attr.set(JAVA_INT, offset(IbvLayouts.IBV_SRQ_ATTR, "srq_limit"), limit);
            status("ibv_modify_srq IBV_SRQ_LIMIT " + limit,
                    state -> (int) Fn.ibv_modify_srq$mh.invokeExact(state, srq, attr, 1 << 1));
        }
    }

    /** ibv_query_srq: {max_wr, max_sge, srq_limit}. */
    public static int[] querySrq(MemorySegment srq) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvLayouts.IBV_SRQ_ATTR);
            status("ibv_query_srq", state -> (int) Fn.ibv_query_srq$mh.invokeExact(state, srq, attr));
            return new int[] {attr.get(JAVA_INT, offset(IbvLayouts.IBV_SRQ_ATTR, "max_wr")),
                    attr.get(JAVA_INT, offset(IbvLayouts.IBV_SRQ_ATTR, "max_sge")),
                    attr.get(JAVA_INT, offset(IbvLayouts.IBV_SRQ_ATTR, "srq_limit"))};
        }
    }

    // ---- AH -----------------------------------------------------------------------------------------

    public static MemorySegment createAh(MemorySegment pd, org.jrdma.verbs.AhAttr ah) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvLayouts.IBV_AH_ATTR);
            QpStructs.writeAh(attr, ah);
            return pointer("ibv_create_ah", state -> (MemorySegment) Fn.ibv_create_ah$mh.invokeExact(state, pd, attr));
        }
    }

    // ---- completion channel and events --------------------------------------------------------------

    /**
     * ibv_get_cq_event on a non-blocking channel: the CQ pointer of the next event, or NULL when
     * none is pending (EAGAIN).
     */
    public static MemorySegment tryGetCqEvent(MemorySegment channel) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment state = a.allocate(Ibv.CALL_STATE);
            MemorySegment cq = a.allocate(ADDRESS);
            MemorySegment cqContext = a.allocate(ADDRESS);
            int rc = (int) Fn.ibv_get_cq_event$mh.invokeExact(state, channel, cq, cqContext);
            if (rc != 0) {
                int e = Native.errnoOfReturn(rc, state);
                if (e == 11) {
                    return MemorySegment.NULL;
                }
                throw Native.failure("ibv_get_cq_event", e);
            }
            return cq.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    public static void ackCqEvents(MemorySegment cq, int n) {
        try {
            Fn.ibv_ack_cq_events$mh.invokeExact(cq, n);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    static void check(String verb, int rc, MemorySegment state) {
        if (rc != 0) {
            throw Native.failure(verb, Native.errnoOfReturn(rc, state));
        }
    }

    static int i32(MemorySegment s, StructLayout l, String field) {
        return s.get(JAVA_INT, offset(l, field));
    }

    static int u8(MemorySegment s, StructLayout l, String field) {
        return Byte.toUnsignedInt(s.get(JAVA_BYTE, offset(l, field)));
    }

    /** A u64 limit as a long: rxe says "no limit" with all ones, which is Long.MAX_VALUE here. */
    private static long unsignedCapped(long v) {
        return v < 0 ? Long.MAX_VALUE : v;
    }

    private static PortState portState(int v) {
        for (PortState s : PortState.values()) {
            if (s.value() == v) {
                return s;
            }
        }
        return PortState.NOP;
    }

    private static Mtu mtu(int v) {
        return v >= 1 && v <= 5 ? Mtu.fromValue(v) : Mtu.MTU_256;
    }
}
