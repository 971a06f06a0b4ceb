package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Verbs} asks the providers as {@code jrdma.provider} says (this module's tests have none on the class path). */
class VerbsTest {
    @AfterEach
    void forgetTheSetting() {
        System.clearProperty(ProviderChoice.PROPERTY);
    }

    @Test
    void nativeWithoutTheModuleFailsNamingTheMissingProvider() {
        System.setProperty(ProviderChoice.PROPERTY, "native");
        assertThatThrownBy(Verbs::deviceList).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no provider named native on the class path (jrdma.provider=native; add jrdma-native")
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ENODEV);
    }

    @Test
    void autoWithoutProvidersHasNoDevicesAndSaysWhyNativeIsNotInUse() {
        assertThat(Verbs.deviceList()).isEmpty();
        assertThatThrownBy(() -> Verbs.device(null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA devices found (native: not in use: no provider named native on the class path;");
    }

    @Test
    void anUnknownSettingFailsNamingTheThree() {
        System.setProperty(ProviderChoice.PROPERTY, "rxe");
        assertThatThrownBy(() -> Verbs.device("x")).isInstanceOf(VerbsException.class)
                .hasMessageContaining("jrdma.provider=rxe: unknown provider; use auto, soft or native");
    }
}
