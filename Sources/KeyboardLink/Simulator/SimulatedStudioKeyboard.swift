import KeyboardLinkBlueZ
import KeyboardLinkDrivers
import KeyboardLinkKeymap

/// A simulated ZMK Studio keyboard on the simulated BlueZ: a `SimulatedStudioFirmware` answering the writes to
/// the Studio RPC characteristic of one device, with indications cut into `chunkSize`-byte pieces as a BLE link
/// with the default MTU carries them.
package actor SimulatedStudioKeyboard {
    /// The device's address.
    package let address: BluetoothAddress
    /// Where the device's GATT objects live.
    package let gatt: SimulatedGATTServer
    /// The firmware, as it stands now.
    package private(set) var firmware: SimulatedStudioFirmware
    /// The largest indication sent.
    package let chunkSize: Int
    /// Waits before each answer, like a slow connection interval.
    package var answerDelay: Duration = .zero
    /// Called (in a task of its own, after the answer) when the firmware's `dropConnection` fault fires: tests
    /// disconnect the device in the simulated BlueZ there.
    private var onLinkDropped: (@Sendable () async -> Void)?

    /// Creates the keyboard; call `attach()` once the device has connected.
    package init(
        firmware: SimulatedStudioFirmware, address: BluetoothAddress, gatt: SimulatedGATTServer, chunkSize: Int = 20
    ) {
        self.firmware = firmware
        self.address = address
        self.gatt = gatt
        self.chunkSize = max(1, chunkSize)
    }

    /// Starts answering writes to the device's Studio characteristic.
    package func attach() async {
        await gatt.setWriteResponder(for: address, characteristic: StudioDriver.characteristicUUID) {
            [weak self] bytes in
            await self?.handle(bytes) ?? []
        }
    }

    /// The user pressed the unlock key: unlocks and indicates `lock_state_changed`.
    package func unlock() async {
        await indicate(firmware.unlock())
    }

    /// The keyboard locks itself and indicates it.
    package func lock() async {
        await indicate(firmware.lock())
    }

    /// Changes a binding behind the host's back (saved, as another Studio client would); see
    /// `SimulatedStudioFirmware.overwrite(layer:position:with:)`.
    @discardableResult
    package func overwrite(layer: Int, position: Int, with binding: StudioBehaviorBinding) -> Bool {
        firmware.overwrite(layer: layer, position: position, with: binding)
    }

    /// The radio link dropped: the firmware forgets its partial frames and locks if it locks on disconnect.
    /// Pair it with `SimulatedBlueZ.setConnected(_:false)`.
    package func linkDropped() {
        firmware.disconnect()
    }

    /// The radio link is back (before `SimulatedBlueZ.setConnected(_:true)`).
    package func linkRestored() {
        firmware.reconnect()
    }

    /// Sets how long each answer waits.
    package func setAnswerDelay(_ delay: Duration) {
        answerDelay = delay
    }

    /// Sets what happens when the firmware drops the link.
    package func setOnLinkDropped(_ action: @escaping @Sendable () async -> Void) {
        onLinkDropped = action
    }

    private func handle(_ bytes: [UInt8]) async -> [[UInt8]] {
        if answerDelay > .zero { try? await Task.sleep(for: answerDelay) }
        let wasConnected = firmware.isConnected
        let answer = chunks(firmware.receive(bytes: bytes))
        if wasConnected, !firmware.isConnected, let onLinkDropped {
            Task { await onLinkDropped() }
        }
        return answer
    }

    private func indicate(_ responses: [StudioResponse]) async {
        var bytes: [UInt8] = []
        for response in responses { bytes += StudioFrameCodec.encode(response.serializedBytes()) }
        for chunk in chunks(bytes) {
            await gatt.setValue(chunk, of: StudioDriver.characteristicUUID, for: address)
        }
    }

    private func chunks(_ bytes: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: chunkSize).map { Array(bytes[$0..<min($0 + chunkSize, bytes.count)]) }
    }
}

extension SimulatedStudioKeyboard {
    /// The ZMK Studio GATT service: one RPC characteristic that takes writes and indicates answers.
    package static var studioService: SimulatedGATTService {
        SimulatedGATTService(
            uuid: StudioDriver.serviceUUID,
            characteristics: [
                SimulatedGATTCharacteristic(
                    uuid: StudioDriver.characteristicUUID, value: [], flags: [.read, .write, .indicate])
            ])
    }

    /// An Aula F87 running ZMK with Studio: the demo Aula F87 plus the Studio service, listed in its `UUIDs` as
    /// bluetoothd lists every primary service it resolved.
    package static var aulaF87Device: SimulatedDevice {
        var device = SimulatedDevice.aulaF87
        device.gatt?.services.append(studioService)
        device.uuids.append(StudioDriver.serviceUUID.description)
        return device
    }

    /// Firmware on `layout`, positions in the layout's key order, holding `keymap` (bindings it cannot encode
    /// hold nothing), by default its owner's (`SimulatedOwnerKeymap`, not kblink's default: as a real keyboard's).
    /// `availableLayers` more layers can be added with `add_layer`. Its stock physical layout is `layout`'s keys
    /// in that order, at their places; with `compactLayout`, a second one, `Compact (no function row)`, places
    /// every key but those of the function zone where the stock one does.
    package static func firmware(
        matching layout: PhysicalLayout, layerCount: Int = 4, keymap wanted: Keymap? = nil,
        macroBehaviorNames: [String] = [], faults: Set<SimulatedStudioFirmware.Fault> = [],
        locksOnDisconnect: Bool = true, availableLayers: Int = 0, compactLayout: Bool = false
    ) -> SimulatedStudioFirmware {
        let behaviors = SimulatedStudioBehavior.standard()
        let table = StudioDriverBindings(
            behaviors: behaviors.map { StudioBehaviorDetails(id: $0.id, displayName: $0.displayName) })
        let source = wanted ?? SimulatedOwnerKeymap.keymap(for: layout, layerCount: layerCount)
        let keymap = (0..<source.layerCount).map { layer in
            layout.keys.map { key in
                let action = source.action(layer: layer, key: key.name) ?? Keymap.clearedAction(layer: layer)
                return (try? table.encode(action)) ?? (try? table.encode(.none)) ?? StudioBehaviorBinding(behaviorID: 0)
            }
        }
        var layouts = [physicalLayout(layout.name, keys: layout.keys)]
        if compactLayout {
            layouts.append(
                physicalLayout("Compact (no function row)", keys: layout.keys.filter { $0.zone != .function }))
        }
        return SimulatedStudioFirmware(
            name: layout.name, keymap: keymap, macroBehaviorNames: macroBehaviorNames, physicalLayouts: layouts,
            faults: faults, locksOnDisconnect: locksOnDisconnect, availableLayers: availableLayers)
    }

    /// A Studio physical layout of `keys` at their places, in hundredths of a key unit.
    private static func physicalLayout(_ name: String, keys: [PhysicalKey]) -> StudioPhysicalLayout {
        func hundredths(_ value: Double) -> Int32 { Int32(clamping: Int((value * 100).rounded())) }
        return StudioPhysicalLayout(
            name: name,
            keys: keys.map {
                StudioKeyPhysicalAttributes(
                    width: hundredths($0.frame.width), height: hundredths($0.frame.height), x: hundredths($0.frame.x),
                    y: hundredths($0.frame.y))
            })
    }
}
