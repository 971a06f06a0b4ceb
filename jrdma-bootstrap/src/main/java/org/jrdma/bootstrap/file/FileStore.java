package org.jrdma.bootstrap.file;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jrdma.bootstrap.rendezvous.Rendezvous;
import org.jrdma.bootstrap.rendezvous.RendezvousSpec;
import org.jrdma.bootstrap.rendezvous.RendezvousStore;

/**
 * A directory where the ranks of jobs meet. The layout follows the rendezvous model
 * ({@link org.jrdma.bootstrap.rendezvous}), with files for keys:
 *
 * <pre>
 * &lt;dir&gt;/&lt;job&gt;/&lt;E&gt;/member/&lt;rank&gt;        the rank's slot in run E, created with CREATE_NEW
 * &lt;dir&gt;/&lt;job&gt;/&lt;E&gt;/info/&lt;to&gt;/&lt;from&gt;   perftest's 108-byte key message, written by rename
 * &lt;dir&gt;/&lt;job&gt;/&lt;E&gt;/sealed              the run is complete (or was given up)
 * &lt;dir&gt;/&lt;job&gt;/&lt;E&gt;/barrier/&lt;name&gt;/&lt;rank&gt;
 * &lt;dir&gt;/&lt;job&gt;/&lt;E&gt;/left/&lt;rank&gt;          the rank closed: those waiting on it fail at once
 * </pre>
 *
 * The current epoch is the greatest numbered directory of the job. A new one is claimed by
 * building it under a temporary name and renaming it into place: rename(2) will not replace a
 * directory that is not empty, so of two ranks that claim the same epoch one wins, and the run
 * appears whole, its subdirectories in place, in one step. The runs two before a new one are
 * removed when it is claimed; nothing reads them.
 */
final class FileStore implements RendezvousStore {
    private final Path dir;
    private final AtomicBoolean closed = new AtomicBoolean();

    FileStore(Path dir) {
        this.dir = dir;
    }

    @Override
    public String address() {
        return dir.toUri().toString();
    }

    @Override
    public Rendezvous join(RendezvousSpec spec) {
        if (closed.get()) {
            throw new IllegalStateException("store " + address() + " is closed");
        }
        return FileRendezvous.join(this, dir.resolve(spec.job()), spec);
    }

    @Override
    public void close() {
        // nothing is held open between calls; the flag is what fails the rendezvous still open
        closed.set(true);
    }

    boolean isClosed() {
        return closed.get();
    }
}
