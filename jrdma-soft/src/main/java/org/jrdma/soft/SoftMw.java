package org.jrdma.soft;

import org.jrdma.soft.memory.Window;
import org.jrdma.verbs.MemoryWindow;
import org.jrdma.verbs.MwType;

/**
 * A memory window, the verbs object: the binding, keys and checks are in the memory side
 * ({@link Window}); this keeps the PD membership.
 */
public final class SoftMw implements MemoryWindow, Window.Handle {
    private final SoftPd pd;
    private final Window window;

    SoftMw(SoftPd pd, MwType type) {
        this.pd = pd;
        this.window = new Window(pd.id(), type, pd.hca().memory());
    }

    @Override
    public MwType type() {
        return window.type();
    }

    @Override
    public int rkey() {
        return window.rkey();
    }

    @Override
    public Window window() {
        return window;
    }

    @Override
    public void close() {
        if (window.close()) {
            pd.forget(this);
        }
    }
}
