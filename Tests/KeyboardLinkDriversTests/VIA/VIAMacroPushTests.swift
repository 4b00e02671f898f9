import KeyboardLinkKeymap
import KeyboardLinkSimulator
import Testing

@testable import KeyboardLinkDrivers

/// `DriverPush` with macros through the VIA driver, against a simulated keyboard on a socketpair: macros go to
/// slots of the macro buffer, keys play them with `QK_MACRO_n` (0x7700 + n).
@Suite("Pushing macros through the VIA driver")
struct VIAMacroPushTests {
    static let layout = (try? PhysicalLayout.builtIn("vgn-98pro"))

    struct Link {
        let server: SimulatedVIAKeyboardServer
        let driver: VIADriver
        let transport: VIASocketTransport
        let layout: PhysicalLayout
    }

    /// A keyboard sized for the VGN 98Pro layout's matrix, served on a socketpair.
    static func keyboard(
        macroCount: Int = 16, macroBufferSize: Int = 1_024, faults: Set<SimulatedVIAKeyboard.Fault> = []
    ) throws -> SimulatedVIAKeyboard {
        let layout = try #require(Self.layout)
        let rows = (layout.keys.map(\.matrix.row).max() ?? 0) + 1
        let columns = (layout.keys.map(\.matrix.column).max() ?? 0) + 1
        return try SimulatedVIAKeyboard(
            layers: 4, rows: rows, columns: columns, macroCount: macroCount, macroBufferSize: macroBufferSize,
            faults: faults)
    }

    static func connect(_ keyboard: SimulatedVIAKeyboard) throws -> Link {
        let (server, transport) = try SimulatedVIAKeyboardServer.start(keyboard)
        return Link(
            server: server, driver: VIADriver(transport: transport), transport: transport,
            layout: try #require(Self.layout))
    }

    static func position(_ layout: PhysicalLayout, _ key: String, layer: UInt8) throws -> VIAKeyPosition {
        let found = try #require(layout.keys.first { $0.name.rawValue == key })
        return VIAKeyPosition(layer: layer, row: UInt8(found.matrix.row), column: UInt8(found.matrix.column))
    }

    /// The keyboard's keymap with `sig` on F5 (layer 0) and `copy` on F6 (layer 1) and F7 (layer 0).
    static func withMacros(_ base: Keymap) throws -> Keymap {
        var desired = base
        let copy = try MacroName("copy")
        let signature = try MacroName("sig")
        desired.macros[copy] = try Macro(parsing: "ctrl+c")
        desired.macros[signature] = try Macro(parsing: "text 'Hi', delay 30, enter")
        desired.setAction(.macro(signature), layer: 0, key: try KeyName("F5"))
        desired.setAction(.macro(copy), layer: 1, key: try KeyName("F6"))
        desired.setAction(.macro(copy), layer: 0, key: try KeyName("F7"))
        return desired
    }

    /// Hand-written from protocols.md: slot 0 `copy` (LCTL down, tap C, LCTL up), slot 1 `sig`.
    static let expectedBuffer: [UInt8] =
        VIAMacroSlotsTests.copyBytes + [0x00] + VIAMacroSlotsTests.signatureBytes + [0x00]

    @Test("edit, push, read back equals the profile; a second push writes nothing")
    func roundTrip() async throws {
        let link = try Self.connect(try Self.keyboard())
        defer { link.transport.close() }
        let layout = link.layout
        let desired = try Self.withMacros(try await link.driver.readKeymap(layout: layout).keymap())
        let push = DriverPush(driver: link.driver, layout: layout)
        let outcome = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(outcome.verified && outcome.saved)
        #expect(outcome.writes.map(\.key.rawValue).sorted() == ["F5", "F6", "F7"])
        #expect(outcome.macros?.changed == [0, 1])

        let keyboard = link.server.keyboard
        // Busy marker, one 20-byte chunk, last byte cleared; then F5 and F7 (layer 0, two keys apart) in one
        // set_buffer and F6 (layer 1) in one set_keycode.
        #expect(keyboard.writeLog.count == 5)
        #expect(Array(keyboard.macroBuffer.prefix(Self.expectedBuffer.count)) == Self.expectedBuffer)
        #expect(keyboard.macroBuffer.dropFirst(Self.expectedBuffer.count).allSatisfy { $0 == 0 })
        #expect(keyboard.playableMacro(1) == VIAMacroSlotsTests.signatureBytes)
        #expect(keyboard.keymap.keycode(at: try Self.position(layout, "F5", layer: 0)) == 0x7701)
        #expect(keyboard.keymap.keycode(at: try Self.position(layout, "F6", layer: 1)) == 0x7700)
        #expect(keyboard.keymap.keycode(at: try Self.position(layout, "F7", layer: 0)) == 0x7700)

        // Read back (what `keymap pull` reads): the same keymap and macros as the profile.
        let device = try await link.driver.readKeymap(layout: layout)
        #expect(device.binding(layer: 0, key: try KeyName("F5")) == .macroSlot(1))
        #expect(device.keymap(macros: desired.macros) == desired)
        // Without the profile's names, slots are named as VIA names them.
        let unnamed = device.keymap()
        #expect(unnamed.action(layer: 0, key: try KeyName("F5")) == .macro(try MacroName("M1")))
        #expect(unnamed.macros[try MacroName("M0")] == (try Macro(parsing: "ctrl+c")))

        let again = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(again.writes.isEmpty && again.macros == nil)
        #expect(link.server.keyboard.writeLog.count == 5)
    }

    @Test("changing a macro's steps rewrites only the differing buffer bytes, no keycode")
    func editedMacro() async throws {
        let link = try Self.connect(try Self.keyboard())
        defer { link.transport.close() }
        var desired = try Self.withMacros(try await link.driver.readKeymap(layout: link.layout).keymap())
        let push = DriverPush(driver: link.driver, layout: link.layout)
        _ = try await push.run(desired: desired, dryRun: false, verify: true)
        let before = link.server.keyboard.writeLog.count
        desired.macros[try MacroName("sig")] = try Macro(parsing: "text 'Ho', delay 30, enter")
        let outcome = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(outcome.writes.isEmpty && outcome.macros?.changed == [1])
        let log = Array(link.server.keyboard.writeLog.dropFirst(before))
        // "Hi" -> "Ho": byte 11 ('i' at offset 10 + 1) of the buffer, between the busy marker and its clearing.
        #expect(
            log == [
                .macroBuffer(offset: 1_023, bytes: [0xFF]), .macroBuffer(offset: 11, bytes: [0x6F]),
                .macroBuffer(offset: 1_023, bytes: [0x00]),
            ])
    }

    @Test("a dry run lists the macro slots and writes nothing")
    func dryRun() async throws {
        let link = try Self.connect(try Self.keyboard())
        defer { link.transport.close() }
        let desired = try Self.withMacros(try await link.driver.readKeymap(layout: link.layout).keymap())
        let outcome = try await DriverPush(driver: link.driver, layout: link.layout).run(
            desired: desired, dryRun: true, verify: true)
        #expect(outcome.dryRun && outcome.writes.count == 3)
        #expect(outcome.macros?.slots.prefix(2).map { $0?.name.rawValue } == ["copy", "sig"])
        #expect(link.server.keyboard.writeLog.isEmpty)
    }

    @Test("macros that do not fit the buffer: NotSupported saying what to do, the keyboard unchanged")
    func doesNotFit() async throws {
        let link = try Self.connect(try Self.keyboard(macroBufferSize: 16))
        defer { link.transport.close() }
        let before = link.server.keyboard
        let desired = try Self.withMacros(try await link.driver.readKeymap(layout: link.layout).keymap())
        do {
            _ = try await DriverPush(driver: link.driver, layout: link.layout).run(
                desired: desired, dryRun: false, verify: true)
            Issue.record("21 bytes of macros should not fit a 16-byte buffer")
        } catch {
            #expect(error.written == 0 && !error.wroteMacros && error.rolledBack)
            #expect(error.beforeChanges, "refused while planning: the push may be tried again as it is")
            guard case .notSupported(let message) = error.error else {
                Issue.record("expected notSupported, got \(error.error)")
                return
            }
            for fragment in ["21 bytes", "holds 16", "sig (11 bytes)", "copy (10 bytes)", "shorten", "unbind"] {
                #expect(message.contains(fragment), "\(message)")
            }
            #expect(error.description.contains("nothing was written, the draft is kept"))
        }
        let after = link.server.keyboard
        #expect(after.writeLog.isEmpty)
        #expect(after.macroBuffer == before.macroBuffer)
        #expect(after.keymap.bufferBytes == before.keymap.bufferBytes)
    }

    @Test("more bound macros than slots: NotSupported naming them, nothing written")
    func tooManyMacros() async throws {
        let link = try Self.connect(try Self.keyboard(macroCount: 1))
        defer { link.transport.close() }
        let desired = try Self.withMacros(try await link.driver.readKeymap(layout: link.layout).keymap())
        do {
            _ = try await DriverPush(driver: link.driver, layout: link.layout).run(
                desired: desired, dryRun: false, verify: true)
            Issue.record("two macros should not fit one slot")
        } catch {
            #expect(error.written == 0)
            #expect(error.error.message.contains("2 macro(s) (copy, sig)"))
            #expect(error.error.message.contains("1 macro slot(s); unbind 1"))
        }
        #expect(link.server.keyboard.writeLog.isEmpty)
    }

    /// The reports a push's first read takes on a fresh keyboard like `keyboard`, and the keymap it reads.
    static func firstRead(_ keyboard: SimulatedVIAKeyboard) async throws -> (reports: Int, keymap: Keymap) {
        let link = try connect(keyboard)
        defer { link.transport.close() }
        let keymap = try await link.driver.readKeymap(layout: link.layout).keymap()
        return (link.server.keyboard.reportCount, keymap)
    }

    @Test("the link dropped in the middle of the buffer write: the error says the keyboard may hold part")
    func droppedMidBuffer() async throws {
        let (reads, base) = try await Self.firstRead(try Self.keyboard())
        let desired = try Self.withMacros(base)
        // Report reads + 1 sets the busy marker, reads + 2 writes the macros; then the link drops.
        let link = try Self.connect(try Self.keyboard(faults: [.dropConnection(afterReports: reads + 2)]))
        defer { link.transport.close() }
        let before = link.server.keyboard
        do {
            _ = try await DriverPush(driver: link.driver, layout: link.layout).run(
                desired: desired, dryRun: false, verify: true)
            Issue.record("the push should have failed")
        } catch {
            guard case .notConnected = error.error else {
                Issue.record("expected notConnected, got \(error.error)")
                return
            }
            #expect(error.wroteMacros && error.written == 0 && !error.rolledBack)
            #expect(!error.beforeChanges, "the macro buffer was being written")
            #expect(error.description.contains("may hold part of the change"))
            #expect(error.description.contains("plays no macro"))
            #expect(error.description.contains("push again"))
        }
        let keyboard = link.server.keyboard
        #expect(!keyboard.isConnected)
        // Half written, but marked as such: QMK plays no macro while the last byte is not 0, and no key was bound.
        #expect(keyboard.macroBuffer.last == 0xFF)
        #expect(keyboard.playableMacro(0) == nil && keyboard.playableMacro(1) == nil)
        #expect(keyboard.keymap == before.keymap)

        // Once the keyboard is back, pushing again completes the change.
        var back = keyboard
        back.reconnect()
        let again = try Self.connect(back)
        defer { again.transport.close() }
        let outcome = try await DriverPush(driver: again.driver, layout: again.layout).run(
            desired: desired, dryRun: false, verify: true)
        #expect(outcome.verified && outcome.writes.count == 3)
        #expect(Array(again.server.keyboard.macroBuffer.prefix(Self.expectedBuffer.count)) == Self.expectedBuffer)
        #expect(again.server.keyboard.macroBuffer.last == 0)
    }

    @Test(
        "an error reply part-way (in the buffer write, or in the keycodes after it) rolls back buffer and keycodes",
        arguments: [2, 3, 5])
    func errorReply(failingWrite: Int) async throws {
        // Writes: 1 busy marker, 2 macro bytes, 3 last byte cleared, 4 F5 and F7 on layer 0 (one set_buffer), 5 F6
        // on layer 1.
        var keyboard = try Self.keyboard(faults: [.failWrite(call: failingWrite + 1)])
        // An earlier tool left a macro kblink cannot read in slot 0: the rollback restores it byte for byte.
        let junk: [UInt8] = [0x01, 0x09, 0x04, 0x00, 0x61, 0x00]
        _ = keyboard.handle(try VIACommand.macroSetBuffer(offset: 0, data: junk).report())
        let link = try Self.connect(keyboard)
        defer { link.transport.close() }
        let before = link.server.keyboard
        let base = try await link.driver.readKeymap(layout: link.layout).keymap()
        let desired = try Self.withMacros(base)
        do {
            _ = try await DriverPush(driver: link.driver, layout: link.layout).run(
                desired: desired, dryRun: false, verify: true)
            Issue.record("the push should have failed")
        } catch {
            #expect(error.wroteMacros && error.rolledBack && !error.beforeChanges)
            #expect(error.written == (failingWrite == 5 ? 2 : 0))
            #expect(error.description.contains("rolled back to its previous keymap and the draft is kept"))
        }
        let after = link.server.keyboard
        #expect(after.macroBuffer == before.macroBuffer)
        #expect(after.keymap.bufferBytes == before.keymap.bufferBytes)
        #expect(after.writeLog.count > before.writeLog.count)
    }

    @Test("a keyboard without macro slots still takes keymap pushes; a bound macro is NotSupported")
    func noMacroSlots() async throws {
        let link = try Self.connect(try Self.keyboard(macroCount: 0, macroBufferSize: 0))
        defer { link.transport.close() }
        var desired = try await link.driver.readKeymap(layout: link.layout).keymap()
        desired.setAction(.none, layer: 1, key: try KeyName("F1"))
        let push = DriverPush(driver: link.driver, layout: link.layout)
        let outcome = try await push.run(desired: desired, dryRun: false, verify: true)
        #expect(outcome.writes.count == 1 && outcome.macros == nil && outcome.verified)
        let withMacros = try Self.withMacros(desired)
        do {
            _ = try await push.run(desired: withMacros, dryRun: false, verify: true)
            Issue.record("a keyboard without macro slots cannot take macros")
        } catch {
            #expect(error.written == 0)
            #expect(error.error.message.contains("0 macro slot(s)"))
        }
        #expect(link.server.keyboard.writeLog.count == 1)
    }
}
