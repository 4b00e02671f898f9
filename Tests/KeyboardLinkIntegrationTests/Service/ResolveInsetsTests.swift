import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

@Suite("ResolveInsets on the daemon and kblink insets")
struct ResolveInsetsTests {
    static func request(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            })
    }

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> DBusValue {
        .array(.double, [.double(x), .double(y), .double(width), .double(height)])
    }

    static let fullKeyboard: [String: DBusValue] = [
        "screen": .array(.double, [.double(1024), .double(1366)]), "safe-bottom": .double(20), "event": .string("show"),
        "keyboard": rect(0, 1011, 1024, 355),
    ]
    static let shortcutBar: [String: DBusValue] = [
        "screen": .array(.uint32, [.uint32(1024), .uint32(1366)]), "event": .string("show"),
        "keyboard": rect(0, 1311, 1024, 355),
    ]

    @Test("the daemon's hardware-keyboard state zeroes a bar-only inset unless the request overrides it")
    func daemonState() async throws {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        try await withDaemon(devices: [aula]) { harness in
            let client = try await harness.client()
            let resolve = MemberName("ResolveInsets")
            func inset(_ entries: [String: DBusValue]) async throws -> Double? {
                let answer = try await client.manager.call(
                    resolve, [Self.request(entries)], returning: [String: DBusValue].self)
                guard case .double(let value)? = answer["inset"]?.unwrapped else { return nil }
                return value
            }
            // Scenario 1: a full keyboard over a full-screen window with SB 20 reserves 335.
            #expect(try await inset(Self.fullKeyboard) == 335)
            // No hardware keyboard: the bar's 55 pt overlap is reserved.
            #expect(try await inset(Self.shortcutBar) == 55)
            try await harness.bluez.setConnected(aula.address, true)
            #expect(try await eventually { try await client.status().hardwareKeyboardAttached })
            // Scenario 4: with the keyboard connected the bar counts as 0 ...
            #expect(try await inset(Self.shortcutBar) == 0)
            // ... a full keyboard summoned on purpose is still reserved (scenario 5) ...
            #expect(try await inset(Self.fullKeyboard) == 335)
            // ... and the request may override the daemon's state.
            var override = Self.shortcutBar
            override["hardware-keyboard"] = .boolean(false)
            #expect(try await inset(override) == 55)
            await client.close()
        }
    }

    @Test(
        "bad requests answer InvalidArgs naming the key",
        arguments: [
            ["window": rect(0, 0, 10, 10)],
            ["screen": .string("big")],
            ["screen": .array(.double, [.double(1024)])],
            ["screen": .array(.double, [.double(1024), .double(-3)])],
            ["screen": .array(.double, [.double(1024), .double(768)]), "frobnicate": .boolean(true)],
            [
                "screen": .array(.double, [.double(1024), .double(768)]), "event": .string("explode"),
                "keyboard": rect(0, 0, 1, 1),
            ],
            ["screen": .array(.double, [.double(1024), .double(768)]), "event": .string("show")],
            ["screen": .array(.double, [.double(1024), .double(768)]), "duration": .double(1)],
            ["screen": .array(.double, [.double(1024), .double(768)]), "safe-bottom": .double(.nan)],
            ["screen": .array(.double, [.double(1024), .double(768)]), "window": rect(0, 0, -5, 10)],
        ] as [[String: DBusValue]])
    func badRequests(_ entries: [String: DBusValue]) async throws {
        try await withDaemon(devices: []) { harness in
            let client = try await harness.client()
            do {
                try await client.manager.call(KBlinkContract.Manager.resolveInsets.declaration, [Self.request(entries)])
                Issue.record("expected InvalidArgs for \(entries)")
            } catch let error as KBlinkError {
                #expect(error.code == .invalidArgs)
                #expect(error.message.contains("'"))
            }
            await client.close()
        }
    }

    @Test("kblink insets asks the daemon, or computes locally and says so")
    func commandLine() async throws {
        try await withDaemon { harness in
            let daemon = try await harness.kblink([
                "insets", "--screen", "1024x1366", "--keyboard", "0,1311,1024,355", "--json",
            ])
            #expect(daemon.status == 0, "\(daemon.standardError)")
            #expect(daemon.standardOutput.contains("\"source\":\"daemon\""))
            // The Aula F87 is connected in the demo machine: the bar is zeroed.
            #expect(daemon.standardOutput.contains("\"inset\":0"))
            // Every JSON key is camelCase.
            #expect(daemon.standardOutput.contains("\"hardwareKeyboard\":true"))
            #expect(!daemon.standardOutput.contains("-"), "\(daemon.standardOutput)")
        }
        let local = try await runProcess(
            DaemonHarness.binary("kblink"),
            [
                "insets", "--screen", "1024x1366", "--keyboard", "0,1011,1024,355", "--safe-bottom", "20", "--focused",
                "40,980,400,44",
                "--top-limit", "24", "--bus", "unix:path=/nonexistent",
            ])
        #expect(local.status == 0, "\(local.standardError)")
        #expect(local.standardOutput.contains("assuming no hardware keyboard"))
        #expect(local.standardOutput.contains("inset:             335"))
        #expect(local.standardOutput.contains("slide:             23"))
        let bad = try await runProcess(DaemonHarness.binary("kblink"), ["insets", "--screen", "1024x", "--local"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--screen expects WxH"))
    }

    @Test("kblink insets --watch prints a new answer when the hardware-keyboard state changes")
    func watch() async throws {
        var aula = SimulatedDevice.aulaF87
        aula.connected = false
        try await withDaemon(devices: [aula]) { harness in
            let watcher = try ChildProcess(
                DaemonHarness.binary("kblink"),
                [
                    "insets", "--screen", "1024x1366", "--keyboard", "0,1311,1024,355", "--watch", "--json", "--bus",
                    harness.bus.address,
                ])
            defer { watcher.signal(SIGKILL) }
            #expect(await eventually { watcher.standardOutput.contains("\"inset\":55") })
            try await harness.bluez.setConnected(aula.address, true)
            #expect(await eventually { watcher.standardOutput.contains("\"inset\":0") })
            try await harness.bluez.setConnected(aula.address, false)
            #expect(await eventually { watcher.standardOutput.components(separatedBy: "\"inset\":55").count == 3 })
            watcher.signal(SIGINT)
            #expect(await watcher.wait().status == 0)
        }
    }
}

@Suite("One request, three ways: library, daemon, CLI")
struct InsetsConsistencyTests {
    @Test("the library, the daemon and the CLI (local and through the daemon) give the same numbers")
    func sameNumbers() async throws {
        // Stage Manager-like window, a keyboard covering its bottom, a focused field, hardware keyboard off.
        var request = InsetRequest(
            screen: Size(width: 1366, height: 1024), window: Rect(x: 100, y: 80, width: 900, height: 800))
        request.safeAreaBottom = 12
        request.event = KeyboardEvent(
            kind: .willShow, endFrame: Rect(x: 0, y: 690, width: 1366, height: 334), duration: 0.3)
        request.focus(frame: Rect(x: 40, y: 600, width: 300, height: 40))
        request.topLimit = 30
        request.options.keyboardDismissPadding = 8
        let library = InsetResolver.resolve(request)
        #expect(library.reservedInset == 190 - 12)

        let arguments = [
            "insets", "--screen", "1366x1024", "--window", "100,80,900,800", "--safe-bottom", "12", "--keyboard",
            "0,690,1366,334", "--duration", "0.3", "--focused", "40,600,300,40", "--top-limit", "30",
            "--dismiss-padding", "8",
            "--hardware-keyboard", "no", "--json",
        ]
        func numbers(_ output: String) throws -> [String: Double] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let answer = try #require(object["answer"] as? [String: Any])
            var result: [String: Double] = [:]
            for key in ["overlap", "inset", "guideTop", "guideHeight", "dismissThreshold", "slide"] {
                result[key] = (answer[key] as? NSNumber)?.doubleValue
            }
            return result
        }
        let expected: [String: Double] = [
            "overlap": library.overlap, "inset": library.reservedInset, "guideTop": library.guideTop,
            "guideHeight": library.guideHeight, "dismissThreshold": library.dismissThreshold, "slide": library.slide,
        ]
        let local = try await runProcess(DaemonHarness.binary("kblink"), arguments + ["--local"])
        #expect(local.status == 0, "\(local.standardError)")
        #expect(try numbers(local.standardOutput) == expected)
        try await withDaemon { harness in
            let viaDaemon = try await harness.kblink(arguments)
            #expect(viaDaemon.standardOutput.contains("\"source\":\"daemon\""))
            #expect(try numbers(viaDaemon.standardOutput) == expected)
            let client = try await harness.client()
            let dictionary = try InsetsArguments.request(
                try ParsedArguments(
                    Array(arguments.dropFirst()), flags: InsetsArguments.flags.union(["--json"]),
                    options: InsetsArguments.options))
            let answer = try await client.manager.call(
                MemberName("ResolveInsets"),
                [
                    .dictionary(
                        key: .string, value: .variant,
                        dictionary.map { DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value)) })
                ],
                returning: [String: DBusValue].self)
            #expect(answer["slide"]?.unwrapped == .double(library.slide))
            #expect(answer["inset"]?.unwrapped == .double(library.reservedInset))
            await client.close()
        }
    }
}
