import Glibc
import KBlinkAPI
import KeyboardLinkAuthorization
import KeyboardLinkDBus
import KeyboardLinkService
import KeyboardLinkSimulator
import KeyboardLinkSupport
import Synchronization

/// `kblinkd-demo`: kblinkd with a simulated BlueZ and simulated keyboards (and their firmware) on the bus, so that
/// every `kblink` command works without Bluetooth hardware. kblinkd itself does not link the simulator.
@main
struct KBlinkDemoDaemon {
    static let usage = """
        Usage: kblinkd-demo [--bus system|session|ADDRESS] [--config PATH] [--state-dir PATH] [--print-address]
                            [--log-level error|warning|notice|info|debug] [--studio-layers N]
                            [--studio-available-layers N] [--polkit] [--grace-period SECONDS]

        kblinkd with a simulated BlueZ: an Aula F87 (connected), a VGN 98Pro (asleep), a phone and a mouse, and a
        Keychron K3 and a headset that a scan finds; the Aula speaks ZMK Studio and the VGN VIA.

          --bus BUS        the bus to serve on (default: a private dbus-daemon it starts, whose address it prints
                           on the first line of standard output)
          --config PATH    configuration file (default /etc/kblink/kblinkd.conf)
          --state-dir PATH where profiles and caches live (default $STATE_DIRECTORY, else /var/lib/kblink)
          --print-address  print the bus address on the first line of standard output, then run
          --log-level L    override the configuration's LogLevel
          --studio-layers N  the layers the Aula F87's ZMK Studio firmware holds (1 to 32, default 5)
          --studio-available-layers N  how many more layers that firmware can add (ZMK's available_layers; 0 to
                           32, default 0)
          --polkit         decide who may pair, edit keymaps, write firmware and read macros as kblinkd does
                           (polkit on the bus, else root and the configured group); without it, root and the
                           user who started kblinkd-demo may do everything and nobody else anything
          --grace-period S override the configuration's [Presence] GracePeriod (seconds, such as 0.5)
        """

    /// What the demo started, to stop at the end.
    final class Started: Sendable {
        let privateBus = Mutex<PrivateBusDaemon?>(nil)
        let simulator = Mutex<SimulatedBlueZ?>(nil)
        let firmware = Mutex<SimulatedDemoFirmware?>(nil)
        let inputDevices = Mutex<SimulatedInputDevices?>(nil)
    }

    static func main() async {
        DaemonRunner.takeOverSignals()
        let options: DaemonRunner.Options
        // The owner's layer count, not kblink's default of 4: as a real keyboard's.
        var studioLayers = 5
        var studioAvailableLayers = 0
        do {
            let parsed = try ParsedArguments(
                Array(CommandLine.arguments.dropFirst()), flags: DaemonRunner.flags.union(["--polkit"]),
                options: DaemonRunner.valueOptions.union(["--studio-layers", "--studio-available-layers"]))
            if parsed.has("--help") {
                print(usage)
                exit(0)
            }
            if parsed.has("--version") {
                print("kblinkd-demo \(KBlink.version)")
                exit(0)
            }
            var parsedOptions = try DaemonRunner.parse(parsed)
            if !parsed.has("--polkit") { parsedOptions.authorization = .simulate }
            options = parsedOptions
            if let text = parsed.value("--studio-layers") {
                guard let count = Int(text), (1...32).contains(count) else {
                    throw ParsedArguments.UsageError("--studio-layers expects 1 to 32; got '\(text)'")
                }
                studioLayers = count
            }
            if let text = parsed.value("--studio-available-layers") {
                guard let count = Int(text), (0...32).contains(count) else {
                    throw ParsedArguments.UsageError("--studio-available-layers expects 0 to 32; got '\(text)'")
                }
                studioAvailableLayers = count
            }
        } catch {
            DaemonRunner.writeError("kblinkd-demo: \(error)\n\n\(usage)")
            exit(2)
        }
        let started = Started()
        let layers = studioLayers
        let availableLayers = studioAvailableLayers
        let companion = DaemonCompanion(
            start: { given, logger in
                var bus = given
                if bus == nil {
                    let daemon = try PrivateBusDaemon()
                    started.privateBus.withLock { $0 = daemon }
                    bus = .address(daemon.address)
                }
                let address = bus ?? .system
                let simulated = SimulatedBlueZ.demo(bus: address)
                // The simulated keyboards' input devices, which kblinkd-demo watches instead of the machine's.
                let inputDevices = try SimulatedInputDevices.temporary()
                started.inputDevices.withLock { $0 = inputDevices }
                await simulated.setInputDevices(inputDevices)
                try await simulated.start()
                started.simulator.withLock { $0 = simulated }
                logger.notice("serving a simulated BlueZ on \(address)")
                // The simulated keyboards' firmware, so that keymap push and pull work in the demo too; attached
                // before kblinkd starts, as a real keyboard's firmware is there when it connects.
                do {
                    let firmware = try await SimulatedDemoFirmware.start(
                        on: simulated, studioLayers: layers, studioAvailableLayers: availableLayers)
                    started.firmware.withLock { $0 = firmware }
                } catch {
                    logger.warning("the simulated keyboards have no firmware to push to: \(error)")
                }
                return (address, given == nil)
            },
            serviceStarted: { service, _ in
                guard let firmware = started.firmware.withLock({ $0 }) else { return }
                await service.pushes.setVIALinks(firmware.viaLinks)
                // The VGN 98Pro's VIA link is only known now: read the keymaps kblinkd could not read on connection.
                await service.readKeymapBases()
            },
            stop: {
                started.firmware.withLock { $0 }?.via.stop()
                await started.simulator.withLock { $0 }?.kill()
                started.privateBus.withLock { $0 }?.stop()
                started.inputDevices.withLock { $0 }?.delete()
            },
            inputDevices: {
                started.inputDevices.withLock { $0 }.map {
                    EvdevPresenceFeed(devicesPath: $0.devicesPath, directory: $0.directory, sysfsRoot: $0.sysfsRoot)
                }
            })
        exit(await DaemonRunner.run(options, companion: companion))
    }
}
