import Glibc
import Testing

@testable import KeyboardLinkService

@Suite("DaemonConfiguration")
struct DaemonConfigurationTests {
    @Test("the defaults are the documented ones")
    func defaults() {
        let configuration = DaemonConfiguration()
        #expect(configuration.logLevel == .info)
        #expect(configuration.presencePolicy == .external)
        #expect(configuration.inputDevicesPath == "/proc/bus/input/devices")
        #expect(configuration.inputDirectory == "/dev/input")
        #expect(configuration.defaultAgent == false)
        #expect(configuration.discoveryTimeout == .seconds(20))
    }

    @Test("a reload names the keys read only at start whose value changed, and only those")
    func restartOnlyChanges() {
        let running = DaemonConfiguration()
        // Applied by a reload: nothing to say.
        let reloadable = DaemonConfiguration(
            logLevel: .debug, presencePolicy: .any, gracePeriod: .seconds(1), countsVirtualDevices: true,
            discoveryTimeout: .seconds(60))
        #expect(DaemonConfiguration.restartOnlyChanges(from: running, to: reloadable).isEmpty)
        #expect(DaemonConfiguration.restartOnlyChanges(from: running, to: running).isEmpty)
        let restart = DaemonConfiguration(
            inputDevicesPath: "/tmp/devices", inputDirectory: "/tmp/input", sysfsRoot: "/tmp/sys",
            batteryProvider: true, defaultAgent: true, fallbackGroup: "wheel")
        #expect(
            DaemonConfiguration.restartOnlyChanges(from: running, to: restart) == [
                "[Presence] InputDevices", "[Presence] InputDirectory", "[Presence] SysfsRoot", "[Battery] Provider",
                "[Pairing] DefaultAgent", "[Authorization] FallbackGroup",
            ])
        var one = running
        one.fallbackGroup = "wheel"
        #expect(DaemonConfiguration.restartOnlyChanges(from: running, to: one) == ["[Authorization] FallbackGroup"])
    }

    @Test("every key sets its field")
    func everyKey() throws {
        let text = """
            [General]
            LogLevel = Debug
            [Presence]
            Policy = bluetooth
            InputDevices = /tmp/fake/devices
            InputDirectory = /tmp/fake/input
            [Pairing]
            DefaultAgent = yes
            DiscoveryTimeout = 300
            """
        let parsed = try DaemonConfiguration.parse(text, fileName: "kblinkd.conf")
        #expect(
            parsed.configuration
                == DaemonConfiguration(
                    logLevel: .debug, presencePolicy: .bluetooth, inputDevicesPath: "/tmp/fake/devices",
                    inputDirectory: "/tmp/fake/input", defaultAgent: true, discoveryTimeout: .seconds(300)))
        #expect(parsed.warnings.isEmpty)
    }

    @Test(
        "booleans",
        arguments: [
            ("true", true), ("FALSE", false), ("yes", true), ("no", false), ("on", true), ("off", false), ("1", true),
            ("0", false),
        ])
    func booleans(text: String, value: Bool) throws {
        let parsed = try DaemonConfiguration.parse("[Pairing]\nDefaultAgent = \(text)", fileName: "f")
        #expect(parsed.configuration.defaultAgent == value)
    }

    @Test(
        "bad values name the file, line, key and allowed values",
        arguments: [
            (
                "[General]\nLogLevel = loud",
                "k.conf:2: [General] LogLevel: \"loud\" is not allowed; use error, warning, notice, info, debug"
            ),
            (
                "[Presence]\nPolicy = usb",
                "k.conf:2: [Presence] Policy: \"usb\" is not allowed; use external, any, bluetooth"
            ),
            (
                "[Presence]\n\nInputDevices = proc/bus/input/devices",
                "k.conf:3: [Presence] InputDevices: \"proc/bus/input/devices\" is not allowed; use an absolute path, such as /proc/bus/input/devices"
            ),
            (
                "[Presence]\nInputDirectory =",
                "k.conf:2: [Presence] InputDirectory: \"\" is not allowed; use an absolute path, such as /dev/input"
            ),
            (
                "[Pairing]\nDefaultAgent = maybe",
                "k.conf:2: [Pairing] DefaultAgent: \"maybe\" is not allowed; use true or false (also yes/no, on/off, 1/0)"
            ),
            (
                "[Pairing]\nDiscoveryTimeout = 0",
                "k.conf:2: [Pairing] DiscoveryTimeout: \"0\" is not allowed; use whole seconds from 1 to 300"
            ),
            (
                "[Pairing]\nDiscoveryTimeout = 301",
                "k.conf:2: [Pairing] DiscoveryTimeout: \"301\" is not allowed; use whole seconds from 1 to 300"
            ),
            (
                "[Pairing]\nDiscoveryTimeout = 20s",
                "k.conf:2: [Pairing] DiscoveryTimeout: \"20s\" is not allowed; use whole seconds from 1 to 300"
            ),
            (
                "[Pairing]\nDiscoveryTimeout = +20",
                "k.conf:2: [Pairing] DiscoveryTimeout: \"+20\" is not allowed; use whole seconds from 1 to 300"
            ),
            (
                "[Pairing]\nDiscoveryTimeout = 99999999999999999999",
                "k.conf:2: [Pairing] DiscoveryTimeout: \"99999999999999999999\" is not allowed; use whole seconds from 1 to 300"
            ),
            (
                "[General]\nLogLevel = info # default",
                "k.conf:2: [General] LogLevel: \"info # default\" is not allowed; use error, warning, notice, info, debug (comments must be on a line of their own)"
            ),
        ])
    func badValue(text: String, message: String) {
        #expect {
            try DaemonConfiguration.parse(text, fileName: "k.conf")
        } throws: { error in
            (error as? ConfigurationError)?.description == message
        }
    }

    @Test("only the last value of a repeated key is checked and used")
    func lastWins() throws {
        let parsed = try DaemonConfiguration.parse("[Presence]\nPolicy = nonsense\nPolicy = any", fileName: "f")
        #expect(parsed.configuration.presencePolicy == .any)
        #expect(parsed.warnings.map(\.line) == [3])
    }

    @Test("unknown sections and keys are warnings, and a wrongly cased key gets a hint")
    func unknowns() throws {
        let text = """
            [General]
            loglevel = debug
            Colour = blue
            [Simulator]
            Keyboards = 2
            """
        let parsed = try DaemonConfiguration.parse(text, fileName: "f")
        #expect(parsed.configuration == DaemonConfiguration())
        #expect(
            parsed.warnings.map(\.description) == [
                "f:4: [Simulator]: unknown section, ignored; kblinkd reads [General], [Presence], [Health], [Battery], [Pairing], [Authorization]",
                "f:2: [General] loglevel: unknown key, ignored; [General] has LogLevel (names are case-sensitive: did you mean LogLevel?)",
                "f:3: [General] Colour: unknown key, ignored; [General] has LogLevel",
            ])
    }

    @Test("a missing default file means defaults; a missing --config file is an error")
    func missingFile() throws {
        let path = "/nonexistent/kblink/kblinkd.conf"
        let parsed = try DaemonConfiguration.load(path: path, missingFile: .useDefaults)
        #expect(parsed.configuration == DaemonConfiguration())
        #expect {
            try DaemonConfiguration.load(path: path)
        } throws: { error in
            (error as? ConfigurationError)?.description
                == "\(path): cannot read the configuration file: No such file or directory; check the path given with --config"
        }
    }

    @Test("a directory is refused even with useDefaults")
    func directory() {
        #expect {
            try DaemonConfiguration.load(path: "/tmp", missingFile: .useDefaults)
        } throws: { error in
            (error as? ConfigurationError)?.description
                == "/tmp: cannot read the configuration file: it is not a regular file"
        }
    }

    @Test("a file on disk is read and parsed, errors naming its path")
    func fromDisk() throws {
        let path = "/tmp/kblinkd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).conf"
        defer { unlink(path) }
        let text = "[Presence]\nPolicy = any\n[Pairing]\nDiscoveryTimeout = many\n"
        let file = try #require(fopen(path, "w"))
        fputs(text, file)
        fclose(file)
        #expect {
            try DaemonConfiguration.load(path: path)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.file == path && error.line == 4 && error.section == "Pairing"
                && error.key == "DiscoveryTimeout"
        }
    }
}
