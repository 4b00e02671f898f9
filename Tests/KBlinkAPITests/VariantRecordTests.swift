import KeyboardLinkDBus
import Testing

@testable import KBlinkAPI

/// The `a{sv}` records of org.kblink1 (`Push`, `Pull`, `ImportProfile`, `CheckAction`): one codec for both sides,
/// strict for options, open to new keys for answers.
@Suite("a{sv} records")
struct VariantRecordTests {
    private static func record(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.sorted { $0.key < $1.key }.map {
                DBusDictionaryEntry(key: .string($0.key), value: .variant($0.value))
            })
    }

    @Test("push options round-trip, and a default request sends dry-run and verify only")
    func pushRequestRoundTrip() throws {
        let request = PushRequest(
            dryRun: false, verify: false, unlockTimeout: 90, applyOnConnect: true, overwrite: true)
        #expect(try PushRequest(dbusValue: request.dbusValue) == request)
        guard case .dictionary(_, _, let entries) = PushRequest().dbusValue else {
            Issue.record("a push request is not a{sv}")
            return
        }
        #expect(entries.map(\.key) == [.string("dry-run"), .string("verify")])
        #expect(PushRequest.dbusType.signature == "a{sv}")
    }

    @Test("push options are refused by name: unknown key, wrong type, limit, and exclusive pairs")
    func pushRequestRefusals() throws {
        let refused: [([String: DBusValue], String)] = [
            (["dry-run": .boolean(true), "force": .boolean(true)], "unknown push option \"force\""),
            (["apply-on-connect": .uint32(1)], "apply-on-connect must be of type 'b'"),
            (["unlock-timeout": .uint32(601)], "up to 600"),
            (["unlock-timeout": .int32(5)], "unlock-timeout must be of type 'u'"),
            (["overwrite": .boolean(true), "keep-keyboard": .boolean(true)], "exclude each other"),
            (["apply-on-connect": .boolean(true), "dry-run": .boolean(true)], "cannot go with dry-run"),
        ]
        for (entries, message) in refused {
            do {
                _ = try PushRequest(dbusValue: Self.record(entries))
                Issue.record("\(entries) was accepted")
            } catch let error as KBlinkError {
                #expect(error.code == .invalidArgs, "\(entries)")
                #expect(error.message.contains(message), "\(error.message) lacks \(message)")
            }
        }
        #expect(throws: KBlinkError.self) { try PushRequest(dbusValue: .array(.string, [])) }
        // Defaults for what is left out.
        let empty = try PushRequest(dbusValue: Self.record([:]))
        #expect(empty == PushRequest())
        #expect(try PushRequest(dbusValue: Self.record(["keep-keyboard": .boolean(false)])) == PushRequest())
    }

    @Test(
        "a push answer round-trips with every row type, skips keys it does not know, and refuses a known key of another type"
    )
    func pushReport() throws {
        let report = PushReport(
            written: 3, macroSlots: 1, layersAdded: 2, layersRemoved: 5, layersRenamed: 6, dryRun: false,
            verified: true, saved: true, driver: "via",
            changes: [.init(layer: 1, key: "A", old: "KC_A", new: "KC_B")],
            kept: [.init(layer: 0, key: "B", base: "KC_B", draft: "KC_B", keyboard: "KC_C")],
            conflicts: [.init(layer: 0, key: "C", base: "KC_C", draft: "KC_D", keyboard: "KC_E")],
            uneditedWrites: 4, problems: [.init(layer: 2, key: "D", action: "MACRO(x)", reason: "no slots")])
        #expect(try PushReport(dbusValue: report.dbusValue) == report)

        guard case .dictionary(let key, let value, var entries) = report.dbusValue else {
            Issue.record("a push answer is not a{sv}")
            return
        }
        entries.append(DBusDictionaryEntry(key: .string("from-a-newer-kblinkd"), value: .variant(.uint64(7))))
        #expect(try PushReport(dbusValue: .dictionary(key: key, value: value, entries)) == report)
        #expect(try PushReport(dbusValue: Self.record([:])) == PushReport())

        do {
            _ = try PushReport(dbusValue: Self.record(["written": .string("three")]))
            Issue.record("a written of type s was accepted")
        } catch let error as KBlinkError {
            #expect(error.message.contains("push answer written must be of type 'u'"))
        }
        // Rows of another shape are refused, not read by position.
        #expect(throws: KBlinkError.self) {
            try PushReport(
                dbusValue: Self.record([
                    "changes": .array(.structure([.uint32, .string]), [.structure([.uint32(1), .string("A")])])
                ]))
        }
    }

    @Test("pull and import answers round-trip; import options are strict")
    func pullAndImport() throws {
        let pull = PullReport(
            changed: 2, bindings: 84, layers: 2, deviceLayers: 3, macros: 1, unknown: 1, driver: "zmk-studio",
            undoable: true)
        #expect(try PullReport(dbusValue: pull.dbusValue) == pull)

        let imported = ProfileImportReport(
            replaced: true, cleared: 5, changes: [.init(layer: 0, key: "ESC", old: "KC_ESC", new: "KC_GRV")],
            macros: [.init(name: "hello", old: "", new: "hello")])
        #expect(try ProfileImportReport(dbusValue: imported.dbusValue) == imported)

        #expect(try ProfileImportRequest(dbusValue: ProfileImportRequest(replace: true).dbusValue).replace)
        #expect(throws: KBlinkError.self) {
            try ProfileImportRequest(dbusValue: Self.record(["replace": .boolean(true), "merge": .boolean(true)]))
        }
        #expect(throws: KBlinkError.self) {
            try ProfileImportRequest(dbusValue: Self.record(["replace": .string("yes")]))
        }
    }
}
