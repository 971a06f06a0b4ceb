package org.jrdma.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Supplier;
import org.jrdma.verbs.ProviderChoice.Mode;
import org.jrdma.verbs.spi.Provider;
import org.junit.jupiter.api.Test;

/** {@code JRDMA_PROVIDER=auto|soft|native|shm} over providers made here, without a service file. */
class ProviderChoiceTest {
    private static final String NO_LIBRARY = "libibverbs.so.1 not found: install rdma-core's libibverbs1";

    private final Provider soft = provider("soft", () -> List.of(device("soft_lo", "soft")), null);
    private final Provider nic = provider("native", () -> List.of(device("mlx5_0", "native")), null);
    private final Provider noLibrary = provider("native", () -> List.of(), NO_LIBRARY);
    private final Provider noDevice = provider("native", () -> List.of(), null);
    private final Provider shm = provider("shm", () -> List.of(device("shm0", "shm")), null);
    private final Provider broken = provider("native", () -> {
        throw new IllegalStateException("ibv_get_device_list: EPERM");
    }, null);

    @Test
    void autoTakesNativeDevicesWhenThereAreAny() {
        ProviderChoice.Choice c = choice(Mode.AUTO, null, soft, nic).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("mlx5_0");
        assertThat(c.nativeNotInUse()).isNull();
        assertThat(c.nativeLine()).isNull();
        assertThat(c.device(null).name()).isEqualTo("mlx5_0");
        assertThatThrownBy(() -> c.device("soft_lo")).isInstanceOf(VerbsException.class)
                .hasMessage("no RDMA device named 'soft_lo'; devices: mlx5_0 (auto offers native's devices while there are any;"
                        + " for soft's, JRDMA_PROVIDER=soft (a tool's --provider soft)) (ENODEV)");
    }

    @Test
    void autoFallsBackToSoftAndSaysWhy() {
        assertThat(choice(Mode.AUTO, null, soft).choose().nativeLine())
                .isEqualTo("native: not in use: no provider named native on the class path");
        ProviderChoice.Choice unavailable = choice(Mode.AUTO, null, soft, noLibrary).choose();
        assertThat(unavailable.devices()).extracting(Device::name).containsExactly("soft_lo");
        assertThat(unavailable.nativeLine()).isEqualTo("native: not in use: " + NO_LIBRARY);
        assertThat(choice(Mode.AUTO, null, noDevice, soft).choose().nativeNotInUse())
                .isEqualTo("the native provider found no RDMA device");
    }

    @Test
    void anUnavailableProviderWithoutACauseIsStillSaidToBeUnavailable() {
        Provider silent = new Provider() {
            @Override
            public String name() {
                return "native";
            }

            @Override
            public List<Device> devices() {
                return List.of();
            }

            @Override
            public boolean isAvailable() {
                return false;
            }
        };
        assertThat(choice(Mode.AUTO, null, silent, soft).choose().nativeLine())
                .isEqualTo("native: not in use: the native provider is unavailable and gives no cause");
        assertThatThrownBy(() -> choice(Mode.NATIVE, "JRDMA_PROVIDER=native", silent).choose())
                .hasMessageContaining("the native provider is unavailable and gives no cause");
    }

    @Test
    void aNativeProviderThatThrowsDoesNotBreakSoft() {
        ProviderChoice.Choice c = choice(Mode.AUTO, null, broken, soft).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("soft_lo");
        assertThat(c.nativeNotInUse()).isEqualTo("the native provider failed: ibv_get_device_list: EPERM");
    }

    @Test
    void aThrowingProviderBesideOthersIsReportedAndTheOnlyOneFailsAsItself() {
        Provider shm = provider("shm", () -> {
            throw new VerbsException(Errno.EACCES, "shm: /dev/shm not writable");
        }, null);
        ProviderChoice.Choice c = choice(Mode.AUTO, null, shm, soft).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("soft_lo");
        assertThat(c.failures()).containsExactly("shm: shm: /dev/shm not writable (EACCES)");

        // alone, its error is the caller's (a bad JRDMA_SOFT_DEVICES still fails naming the entry)
        assertThatThrownBy(() -> choice(Mode.AUTO, null, shm).choose()).hasMessageContaining("/dev/shm not writable");
    }

    @Test
    void softOffersSoftOnlyAndNamesTheSetting() {
        ProviderChoice.Choice c = choice(Mode.SOFT, "JRDMA_PROVIDER=soft", nic, soft).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("soft_lo");
        assertThat(c.nativeLine()).isEqualTo("native: not in use: JRDMA_PROVIDER=soft");
        assertThatThrownBy(() -> c.device("mlx5_0")).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA device named 'mlx5_0'; devices: soft_lo (native: not in use: JRDMA_PROVIDER=soft)");
    }

    @Test
    void nativeOffersNativeOnly() {
        assertThat(choice(Mode.NATIVE, "JRDMA_PROVIDER=native", soft, nic).choose().devices())
                .extracting(Device::name).containsExactly("mlx5_0");
    }

    @Test
    void nativeWhenUnavailableFailsWithTheProvidersCause() {
        assertThatThrownBy(() -> choice(Mode.NATIVE, "JRDMA_PROVIDER=native", soft, noLibrary).choose())
                .isInstanceOf(VerbsException.class).hasMessage(NO_LIBRARY + " (ENODEV)")
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ENODEV);
        assertThatThrownBy(() -> choice(Mode.NATIVE, "jrdma.provider=native", soft, noDevice).choose())
                .hasMessageContaining("the native provider found no RDMA device (jrdma.provider=native)");
    }

    @Test
    void nativeWithoutTheModuleNamesTheMissingProvider() {
        assertThatThrownBy(() -> choice(Mode.NATIVE, "JRDMA_PROVIDER=native", soft).choose())
                .isInstanceOf(VerbsException.class)
                .hasMessageContaining("no provider named native on the class path (JRDMA_PROVIDER=native; add jrdma-native")
                .extracting(e -> ((VerbsException) e).errno()).isEqualTo(Errno.ENODEV);
    }

    @Test
    void anUnknownSettingNamesTheFour() {
        assertThatThrownBy(() -> Mode.parse("ibverbs", "JRDMA_PROVIDER")).isInstanceOf(VerbsException.class)
                .hasMessage("JRDMA_PROVIDER=ibverbs: unknown provider; use auto, soft, native or shm (EINVAL)");
        assertThat(Mode.parse(" Native ", "JRDMA_PROVIDER")).isEqualTo(Mode.NATIVE);
        assertThat(Mode.parse("SHM", "JRDMA_PROVIDER")).isEqualTo(Mode.SHM);
        assertThat(Mode.SHM.text()).isEqualTo(ProviderChoice.SHM);
    }

    @Test
    void shmOffersShmOnlyAndNamesTheSetting() {
        ProviderChoice.Choice c = choice(Mode.SHM, "JRDMA_PROVIDER=shm", soft, nic, shm).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("shm0");
        assertThat(c.device(null).name()).isEqualTo("shm0");
        assertThat(c.deviceFor(null, false).name()).isEqualTo("shm0");
        assertThat(c.nativeLine()).isEqualTo("native: not in use: JRDMA_PROVIDER=shm");
    }

    @Test
    void shmWithoutTheModuleOrUnavailableFailsAsSoftAndNativeDo() {
        assertThatThrownBy(() -> choice(Mode.SHM, "--provider=shm", soft, nic).choose())
                .isInstanceOf(VerbsException.class)
                .hasMessage("no provider named shm on the class path (--provider=shm; add jrdma-shm to the class path,"
                        + " or choose auto, soft or native) (ENODEV)");
        Provider notLinux = provider("shm", List::of, "shm: needs Linux");
        assertThatThrownBy(() -> choice(Mode.SHM, "JRDMA_PROVIDER=shm", soft, notLinux).choose())
                .isInstanceOf(VerbsException.class).hasMessage("shm: needs Linux (ENODEV)");
        assertThatThrownBy(() -> choice(Mode.SOFT, "JRDMA_PROVIDER=soft", shm).choose())
                .hasMessageContaining("add jrdma-soft to the class path, or choose auto, native or shm)");
    }

    @Test
    void autoOffersSoftFirstAndShmLastWhateverTheClassPathOrder() {
        Provider other = provider("other", () -> List.of(device("other0", "other")), null);
        for (List<Provider> order : List.of(List.of(shm, other, soft), List.of(soft, shm, other), List.of(other, shm, soft, noLibrary))) {
            ProviderChoice.Choice c = new ProviderChoice(Mode.AUTO, null, order).choose();
            assertThat(c.devices()).as("%s", order).extracting(Device::name).containsExactly("soft_lo", "other0", "shm0");
            assertThat(c.device(null).name()).isEqualTo("soft_lo");
        }
    }

    @Test
    void autoWithANicLeavesShmOutAndSaysHowToGetIt() {
        ProviderChoice.Choice c = choice(Mode.AUTO, null, shm, soft, nic).choose();
        assertThat(c.devices()).extracting(Device::name).containsExactly("mlx5_0");
        assertThat(c.leftOut()).isEqualTo("auto offers native's devices while there are any;"
                + " for soft's, JRDMA_PROVIDER=soft (a tool's --provider soft); for shm's, JRDMA_PROVIDER=shm (a tool's --provider shm)");
        assertThat(c.deviceFor(null, true).name()).as("a NIC stays the default for a local peer").isEqualTo("mlx5_0");
    }

    @Test
    void deviceForALocalPeerInAutoIsShmsDevice() {
        ProviderChoice.Choice c = choice(Mode.AUTO, null, shm, soft).choose();
        assertThat(c.deviceFor(null, true).name()).isEqualTo("shm0");
        assertThat(c.deviceFor(null, false).name()).isEqualTo("soft_lo");
        // a name is taken as given, local peer or not
        assertThat(c.deviceFor("soft_lo", true).name()).isEqualTo("soft_lo");
        assertThat(c.deviceFor("shm0", false).name()).isEqualTo("shm0");
        assertThatThrownBy(() -> c.deviceFor("mlx5_0", true)).isInstanceOf(VerbsException.class)
                .hasMessageStartingWith("no RDMA device named 'mlx5_0'; devices: soft_lo, shm0");
    }

    @Test
    void deviceForWithoutShmIsDevice() {
        assertThat(choice(Mode.AUTO, null, soft).choose().deviceFor(null, true).name()).isEqualTo("soft_lo");
        assertThat(choice(Mode.SOFT, "JRDMA_PROVIDER=soft", soft, shm).choose().deviceFor(null, true).name())
                .isEqualTo("soft_lo");
        assertThat(choice(Mode.NATIVE, "JRDMA_PROVIDER=native", nic, shm).choose().deviceFor(null, true).name())
                .isEqualTo("mlx5_0");
        ProviderChoice.Choice none = choice(Mode.AUTO, null, noLibrary).choose();
        assertThatThrownBy(() -> none.deviceFor(null, true)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA devices found");
    }

    @Test
    void thePropertyWinsOverTheEnvironment() {
        // the environment of this JVM is not ours to set; the property alone shows the order
        System.setProperty(ProviderChoice.PROPERTY, "soft");
        try {
            assertThat(ProviderChoice.fromEnvironment().mode()).isEqualTo(Mode.SOFT);
            System.setProperty(ProviderChoice.PROPERTY, "bogus");
            assertThatThrownBy(ProviderChoice::fromEnvironment).hasMessageContaining("jrdma.provider=bogus: unknown provider");
        } finally {
            System.clearProperty(ProviderChoice.PROPERTY);
        }
    }

    @Test
    void noDevicesAtAllSaysWhyNativeIsNotInUse() {
        ProviderChoice.Choice c = choice(Mode.AUTO, null, noLibrary).choose();
        assertThat(c.devices()).isEmpty();
        assertThatThrownBy(() -> c.device(null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("no RDMA devices found (native: not in use: " + NO_LIBRARY);
    }

    private static ProviderChoice choice(Mode mode, String setting, Provider... providers) {
        return new ProviderChoice(mode, setting, List.of(providers));
    }

    private static Provider provider(String name, Supplier<List<Device>> devices, String unavailable) {
        return new Provider() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Device> devices() {
                return devices.get();
            }

            @Override
            public boolean isAvailable() {
                return unavailable == null;
            }

            @Override
            public String unavailabilityCause() {
                return unavailable;
            }
        };
    }

    private static Device device(String name, String provider) {
        return new Device() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String provider() {
                return provider;
            }

            @Override
            public long guid() {
                return 1;
            }

            @Override
            public String description() {
                return "made by ProviderChoiceTest";
            }

            @Override
            public Context open() {
                throw VerbsException.unsupported("open");
            }
        };
    }
}
