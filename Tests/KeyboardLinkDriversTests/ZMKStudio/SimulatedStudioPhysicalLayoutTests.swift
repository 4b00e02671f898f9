import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkDrivers
@testable import KeyboardLinkSimulator

/// `get_physical_layouts` and `set_active_physical_layout` on the simulated ZMK Studio firmware, with ZMK's quirks
/// (`keymap_subsystem.c`, `physical_layouts.c`), and the driver's key positions on a switched layout.
@Suite("Simulated ZMK Studio firmware: physical layouts")
struct SimulatedStudioPhysicalLayoutTests {
    private static func aula() throws -> (PhysicalLayout, SimulatedStudioFirmware) {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        return (layout, SimulatedStudioKeyboard.firmware(matching: layout, layerCount: 2, compactLayout: true))
    }

    private func handle(_ firmware: inout SimulatedStudioFirmware, _ subsystem: StudioRequest.Subsystem)
        -> [StudioResponse]
    {
        firmware.handle(StudioRequest(requestID: 1, subsystem: subsystem))
    }

    private func answer(_ firmware: inout SimulatedStudioFirmware, _ subsystem: StudioRequest.Subsystem)
        -> StudioRequestResponse.Payload?
    {
        guard case .requestResponse(let answer) = handle(&firmware, subsystem).last else { return nil }
        return answer.payload
    }

    private static let changed = StudioResponse.notification(.keymap(.unsavedChangesStatusChanged(true)))

    @Test("both requests need the unlock; the demo Aula F87 has its full layout and one without the function row")
    func layouts() throws {
        var (layout, firmware) = try Self.aula()
        #expect(answer(&firmware, .keymap(.getPhysicalLayouts)) == .meta(.simpleError(.unlockRequired)))
        #expect(answer(&firmware, .keymap(.setActivePhysicalLayout(1))) == .meta(.simpleError(.unlockRequired)))
        #expect(firmware.activePhysicalLayout == 0)
        _ = firmware.unlock()
        guard case .keymap(.physicalLayouts(let layouts)) = answer(&firmware, .keymap(.getPhysicalLayouts)) else {
            Issue.record("get_physical_layouts did not answer the layouts")
            return
        }
        #expect(layouts.activeLayoutIndex == 0)
        #expect(layouts.layouts.map(\.name) == ["AULA F87", "Compact (no function row)"])
        #expect(layouts.layouts.map(\.keys.count) == [87, 71])
        // The stock layout is kblink's, key for key, in hundredths of a key unit.
        let stock = try #require(StudioDriver.placed(layouts.layouts[0], on: layout))
        #expect(stock.map { $0?.rawValue } == layout.keys.map(\.name.rawValue))
        let compact = try #require(StudioDriver.placed(layouts.layouts[1], on: layout)).map { $0?.rawValue }
        #expect(compact.count == 71 && !compact.contains("ESC") && !compact.contains("F1"))
        #expect(compact.first == "GRAVE")
    }

    @Test(
        "a layout name the keyboard chose is kept only when a layer could have it: no NUL, escape, newline or override",
        arguments: [
            ("Compact (no function row)", "Compact (no function row)"), ("a\u{0}b", ""), ("\u{1B}[31mred", ""),
            ("two\nrows", ""), ("\u{202E}desrever", ""), (String(repeating: "x", count: 65), ""), ("", ""),
        ])
    func hostileLayoutNames(name: String, shown: String) {
        #expect(StudioDriver.layoutName(name) == shown)
    }

    @Test("a switch answers the keymap in the new positions; unplaced ones hold nothing and refuse writes")
    func switchLayout() throws {
        var (layout, firmware) = try Self.aula()
        _ = firmware.unlock()
        let stock = firmware.activeKeymap
        let output = handle(&firmware, .keymap(.setActivePhysicalLayout(1)))
        #expect(output.first == Self.changed)
        guard case .requestResponse(let response) = output.last,
            case .keymap(.setActivePhysicalLayout(.ok(let keymap))) = response.payload
        else {
            Issue.record("set_active_physical_layout did not answer the keymap: \(output)")
            return
        }
        #expect(firmware.activePhysicalLayout == 1 && firmware.savedPhysicalLayout == 0)
        // Still the keymap's full length per layer: position b is the stock key at the same place.
        #expect(keymap.layers.allSatisfy { $0.bindings.count == 87 })
        let grave = try #require(layout.keys.firstIndex { $0.name.rawValue == "GRAVE" })
        #expect(keymap.layers[0].bindings[0] == stock[0][grave])
        #expect(keymap.layers[0].bindings[71...].allSatisfy { $0 == StudioBehaviorBinding(behaviorID: 0) })
        let keyPress = try #require(firmware.behaviorID(named: "Key Press"))
        let binding = StudioBehaviorBinding(behaviorID: Int32(keyPress), param1: 0x07_0004)
        #expect(
            answer(&firmware, .keymap(.setLayerBinding(.init(layerID: 0, keyPosition: 80, binding: binding))))
                == .keymap(.setLayerBinding(.invalidLocation)))
        // A write at compact position 0 lands on the stock GRV.
        #expect(
            answer(&firmware, .keymap(.setLayerBinding(.init(layerID: 0, keyPosition: 0, binding: binding))))
                == .keymap(.setLayerBinding(.ok)))
        #expect(firmware.activeKeymap[0][grave] == binding)
        #expect(answer(&firmware, .keymap(.checkUnsavedChanges)) == .keymap(.unsavedChanges(true)))
        #expect(answer(&firmware, .keymap(.saveChanges)) == .keymap(.saveChanges(.ok)))
        #expect(firmware.savedPhysicalLayout == 1)
        #expect(answer(&firmware, .keymap(.checkUnsavedChanges)) == .keymap(.unsavedChanges(false)))
    }

    @Test(
        "ZMK's quirks: GENERIC for a missing layout (with the notification), the index read as one byte, discard goes to the default"
    )
    func quirks() throws {
        var (_, firmware) = try Self.aula()
        _ = firmware.unlock()
        let refused = handle(&firmware, .keymap(.setActivePhysicalLayout(2)))
        #expect(refused.first == Self.changed)
        guard case .requestResponse(let response) = refused.last else {
            Issue.record("no answer")
            return
        }
        #expect(response.payload == .keymap(.setActivePhysicalLayout(.failed(.generic))))
        #expect(firmware.activePhysicalLayout == 0)
        // 257 is 1 once cast to uint8_t.
        guard case .keymap(.setActivePhysicalLayout(.ok)) = answer(&firmware, .keymap(.setActivePhysicalLayout(257)))
        else {
            Issue.record("257 did not select layout 1")
            return
        }
        #expect(firmware.activePhysicalLayout == 1)
        _ = answer(&firmware, .keymap(.saveChanges))
        // The saved choice is layout 1, yet discard selects the default one, as ZMK's revert does.
        _ = answer(&firmware, .keymap(.discardChanges))
        #expect(firmware.activePhysicalLayout == 0)
    }
}
