package org.jrdma.tools;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import org.jrdma.soft.SoftDevice;
import org.jrdma.soft.SoftDeviceDiscovery;
import org.jrdma.verbs.Context;
import org.jrdma.verbs.Device;
import org.jrdma.verbs.Errno;
import org.jrdma.verbs.ProtectionDomain;
import org.jrdma.verbs.VerbsException;
import org.jrdma.verbs.spi.Provider;

/**
 * A test provider, "strict": soft devices (named by {@code jrdma.test.strict.devices}, as
 * {@code name=address,…}; none without it) that refuse {@code registerMemory(segment, access)}
 * as the native provider refuses it for memory of an arena the program can close — so a tool
 * run on them shows that it registers its memory the way that will run on a NIC:
 * {@code registerMemory(segment, access, arena)}. Everything else is the soft device's.
 */
public final class StrictRegistrationProvider implements Provider {
    public static final String PROPERTY = "jrdma.test.strict.devices";
    public static final String REFUSAL = "reg_mr: the two-argument form, which the native provider refuses";

    @Override
    public String name() {
        return "strict";
    }

    @Override
    public List<Device> devices() {
        String specs = System.getProperty(PROPERTY);
        if (specs == null) {
            return List.of();
        }
        return SoftDeviceDiscovery.parse(specs).stream().map(s -> wrap(new SoftDevice(s), Device.class)).toList();
    }

    /** {@code target} behind a proxy that refuses the two-argument registerMemory and wraps the devices, contexts and PDs it returns. */
    private static <T> T wrap(T target, Class<T> type) {
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getName().equals("registerMemory") && method.getParameterCount() == 2) {
                throw new VerbsException(Errno.EINVAL, REFUSAL + " (register with the arena that owns the memory)");
            }
            if (method.getName().equals("equals")) {
                return proxy == args[0];
            }
            Object r;
            try {
                r = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            return switch (r) {
                case Device d when method.getReturnType() == Device.class -> wrap(d, Device.class);
                case Context c when method.getReturnType() == Context.class -> wrap(c, Context.class);
                case ProtectionDomain pd when method.getReturnType() == ProtectionDomain.class -> wrap(pd, ProtectionDomain.class);
                case null, default -> r;
            };
        };
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }
}
