import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// The real `kblinkd` binary: readiness, evdev presence from a fake `/proc/bus/input/devices`, SIGHUP and SIGTERM.
@Suite("kblinkd as a process")
struct DaemonProcessTests {
    static let laptop = """
        I: Bus=0011 Vendor=0001 Product=0001 Version=ab83
        N: Name="AT Translated Set 2 keyboard"
        P: Phys=isa0060/serio0/input0
        S: Sysfs=/devices/platform/i8042/serio0/input/input3
        U: Uniq=
        H: Handlers=sysrq kbd event3 leds
        B: PROP=0
        B: EV=120013
        B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe
        B: MSC=10
        B: LED=7

        I: Bus=0019 Vendor=0000 Product=0001 Version=0000
        N: Name="Power Button"
        P: Phys=LNXPWRBN/button/input0
        S: Sysfs=/devices/LNXSYSTM:00/LNXPWRBN:00/input/input1
        U: Uniq=
        H: Handlers=kbd event1
        B: PROP=0
        B: EV=3
        B: KEY=10000000000000 0

        I: Bus=0006 Vendor=0fac Product=0ade Version=0001
        N: Name="keyd virtual keyboard"
        P: Phys=
        S: Sysfs=/devices/virtual/input/input9
        U: Uniq=
        H: Handlers=sysrq kbd event9 leds
        B: PROP=0
        B: EV=120013
        B: KEY=402000000 3803078f800d001 feffffdfffefffff fffffffffffffffe

        """

    static let usbKeyboard = """
        I: Bus=0003 Vendor=046d Product=c31c Version=0110
        N: Name="Logitech USB Keyboard"
        P: Phys=usb-0000:00:14.0-2/input0
        S: Sysfs=/devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/0003:046D:C31C.0001/input/input12
        U: Uniq=
        H: Handlers=sysrq kbd event12 leds
        B: PROP=0
        B: EV=120013
        B: KEY=1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe

        """

    @Test("READY=1, evdev keyboards from a fake /proc file, SIGHUP reload, SIGTERM releases the name")
    func lifeCycle() async throws {
        let bus = try await TestBus()
        let directory = NSTemporaryDirectory() + "kblinkd-test-" + UUID().uuidString
        let inputDirectory = directory + "/input"
        try FileManager.default.createDirectory(atPath: inputDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let devices = directory + "/devices"
        try Self.laptop.write(toFile: devices, atomically: true, encoding: .utf8)
        // sysfs, as kblinkd checks each block of the devices file against it.
        let sys = directory + "/sys"
        try FileManager.default.createDirectory(atPath: sys + "/class/input", withIntermediateDirectories: true)
        for block in (Self.laptop + Self.usbKeyboard).split(separator: "\n") where block.hasPrefix("S: Sysfs=") {
            let path = String(block.dropFirst("S: Sysfs=".count))
            try FileManager.default.createDirectory(atPath: sys + path, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: sys + "/class/input/" + (path.split(separator: "/").last ?? ""),
                withDestinationPath: "../.." + path)
        }
        let config = directory + "/kblinkd.conf"
        func writeConfig(policy: String, more: String = "") throws {
            try
                ("[Presence]\nPolicy = \(policy)\nInputDevices = \(devices)\nInputDirectory = \(inputDirectory)\nSysfsRoot = \(sys)\n"
                + more)
                .write(toFile: config, atomically: true, encoding: .utf8)
        }
        try writeConfig(policy: "external")
        let notify = try NotifySocket()
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        // No BlueZ on this bus, so only evdev decides.
        let daemon = try ChildProcess(
            DaemonHarness.binary("kblinkd"),
            ["--bus", bus.address, "--config", config, "--state-dir", directory, "--log-level", "debug"],
            environment: environment)
        defer { daemon.signal(SIGKILL) }
        let ready = await notify.waitFor("READY=1")
        #expect(ready != nil, "\(daemon.standardError)")

        let client = try await KBlinkClient.connect(to: bus.busAddress)
        // i8042 laptop keyboard, a power button and a virtual keyboard: none counts under `external`.
        #expect(try await client.status().hardwareKeyboardAttached == false)

        // A USB keyboard appears: the kernel adds a node and the devices file changes.
        try (Self.laptop + Self.usbKeyboard).write(toFile: devices, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: inputDirectory + "/event12", contents: nil)
        #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
        #expect(try await client.status().hardwareKeyboards.map(\.id) == ["/dev/input/event12"])

        // It goes away again.
        try Self.laptop.write(toFile: devices, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: inputDirectory + "/event12")
        #expect(try await eventually { try await !client.status().hardwareKeyboardAttached })

        // SIGHUP with policy `any`: the laptop's own keyboard now counts (the power button and keyd never do).
        try writeConfig(policy: "any")
        daemon.signal(SIGHUP)
        #expect(await notify.waitFor("RELOADING=1") != nil)
        #expect(
            try await eventually {
                try await client.status().hardwareKeyboards.map(\.id) == ["/dev/input/event3"]
            })
        #expect(await eventually { daemon.standardError.contains("<5>configuration reloaded") })
        #expect(!daemon.standardError.contains("read only when kblinkd starts"), "the policy applies at once")

        // SIGHUP with settings read only at start changed: kblinkd says which, and keeps serving.
        try writeConfig(policy: "any", more: "[Pairing]\nDefaultAgent = true\n[Battery]\nProvider = yes\n")
        daemon.signal(SIGHUP)
        #expect(
            await eventually {
                daemon.standardError.contains(
                    "<5>changed, but read only when kblinkd starts: [Battery] Provider, [Pairing] DefaultAgent; ")
            }, "\(daemon.standardError)")
        #expect(try await client.status().hardwareKeyboards.map(\.id) == ["/dev/input/event3"])

        // SIGTERM: STOPPING=1, the name is released and the process exits 0.
        daemon.signal(SIGTERM)
        #expect(await notify.waitFor("STOPPING=1") != nil)
        let result = await daemon.wait()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await client.connection.nameOwner(of: KBlink.service) == nil)
        #expect(result.standardError.contains("<5>stopping on signal"))
        await client.close()
    }

    @Test("kblinkd has no simulator: --simulate is a usage error that names kblinkd-demo")
    func simulateIsTheDemosJob() async throws {
        let result = try await runProcess(DaemonHarness.binary("kblinkd"), ["--simulate"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("kblinkd-demo"))
    }

    @Test("kblinkd-demo without --bus starts a private bus and prints its address first")
    func embeddedDefault() async throws {
        let state = NSTemporaryDirectory() + "kblinkd-sim-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: state) }
        let daemon = try ChildProcess(DaemonHarness.binary("kblinkd-demo"), ["--state-dir", state])
        defer { daemon.signal(SIGKILL) }
        #expect(await eventually { daemon.standardOutput.contains("\n") })
        let address = try #require(daemon.standardOutput.split(separator: "\n").first.map(String.init))
        #expect(address.hasPrefix("unix:"))
        let connection = try await BusConnection.connect(to: .address(address))
        #expect(try await eventually { try await connection.nameOwner(of: KBlink.service) != nil })
        await connection.close()
        let list = try await runProcess(DaemonHarness.binary("kblink"), ["list", "--bus", address])
        #expect(list.standardOutput.contains("Aula F87"))
        #expect(list.standardOutput.contains("VGN 98Pro"))
        // The simulated keyboards have firmware: a push reaches ZMK Studio on the Aula F87 and, once connected,
        // VIA on the VGN 98Pro; a second push finds nothing to write.
        let kblink = DaemonHarness.binary("kblink")
        for (device, key) in [("aula", "CAPS"), ("vgn", "A")] {
            if device == "vgn" {
                #expect(try await runProcess(kblink, ["connect", device, "--bus", address]).status == 0)
            }
            #expect(
                try await runProcess(kblink, ["keymap", "set", device, key, "KC_LCTL", "--bus", address]).status == 0)
            // keymap set's pre-flight CheckAction may still hold the keyboard on a loaded machine: the push waits for
            // it (a queued claim), it is never Busy.
            let push = try await runProcess(kblink, ["keymap", "push", device, "--json", "--bus", address])
            #expect(push.status == 0, "\(push.standardError)")
            #expect(push.standardOutput.contains("\"written\":1"), "\(push.standardOutput)")
            let again = try await runProcess(kblink, ["keymap", "push", device, "--json", "--bus", address])
            #expect(again.standardOutput.contains("\"written\":0"), "\(again.standardOutput)")
        }
        daemon.signal(SIGTERM)
        #expect(await daemon.wait().status == 0)
    }

    @Test("bad command lines and configuration files give clear errors and exit codes")
    func badInput() async throws {
        let usage = try await runProcess(DaemonHarness.binary("kblinkd"), ["--frobnicate"])
        #expect(usage.status == 2)
        #expect(usage.standardError.contains("unknown option --frobnicate"))
        let directory = NSTemporaryDirectory() + "kblinkd-bad-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "[Presence]\nPolicy = sometimes\n".write(toFile: directory + "/bad.conf", atomically: true, encoding: .utf8)
        let bad = try await runProcess(
            DaemonHarness.binary("kblinkd"), ["--config", directory + "/bad.conf", "--bus", "session"])
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("sometimes"))
        let missing = try await runProcess(DaemonHarness.binary("kblinkd"), ["--config", directory + "/none.conf"])
        #expect(missing.status == 1)
    }
}
