package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Verbs} asks the providers as {@code jrdma.provider} says. This module's tests have one
 * provider on the class path, {@link UnloadableProvider}, whose constructor fails: it is named,
 * and it stops nothing.
 */
// its provider comes from META-INF/services in the test classes, which a named module ignores
@Tag("class-path")
class VerbsTest {
    @AfterEach
    void forgetTheSetting() {
        System.clearProperty(ProviderChoice.PROPERTY);
    }

    @Test
    void nativeWithoutTheModuleFailsNamingTheMissingProvider() {
        System.setProperty(ProviderChoice.PROPERTY, "native");
        assertThatThrownBy(Verbs::deviceList).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no provider named native on the class path (")
                .hasMessageContaining("org.jrdma.verbs.UnloadableProvider could not be instantiated: cannot start on purpose")
                .hasMessageContaining("(jrdma.provider=native; add jrdma-native")
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ENODEV);
    }

    @Test
    void autoWithNoProviderLoadedHasNoDevicesAndSaysWhyNativeIsNotInUse() {
        assertThat(Verbs.deviceList()).isEmpty();
        assertThatThrownBy(() -> Verbs.device(null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA devices found (native: not in use: no provider named native on the class path (")
                .hasMessageContaining("UnloadableProvider could not be instantiated");
    }

    @Test
    void anUnknownSettingFailsNamingTheFour() {
        System.setProperty(ProviderChoice.PROPERTY, "rxe");
        assertThatThrownBy(() -> Verbs.device("x")).isInstanceOf(VerbsException.class)
                .hasMessageContaining("jrdma.provider=rxe: unknown provider; use auto, soft, native or shm");
    }

    @Test
    void shmWithoutTheModuleFailsNamingTheMissingProvider() {
        System.setProperty(ProviderChoice.PROPERTY, "shm");
        assertThatThrownBy(() -> Verbs.device(null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no provider named shm on the class path (")
                .hasMessageContaining("(jrdma.provider=shm; add jrdma-shm to the class path, or choose auto, soft or native)")
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ENODEV);
    }
}
