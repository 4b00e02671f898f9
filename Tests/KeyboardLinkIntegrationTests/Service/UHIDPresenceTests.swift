import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// BlueZ 5.77 and later can keep an LE keyboard's uhid input device across disconnections (its `hog` plugin), so the
/// evdev node with `Bus=0005` and the keyboard's address in `Uniq` outlives the link. The hardware-keyboard flag
/// follows BlueZ's `Connected` and counts the keyboard once. Found by the real-stack rig (docs/real-bluez.md).
@Suite("Presence of a BLE keyboard whose uhid node outlives the link", .serialized)
struct UHIDPresenceTests {
    static let aula = SimulatedDevice.aulaF87.address

    /// The node the hog plugin made for the Aula F87: under /devices/virtual/misc/uhid/, Bus=0005, Uniq=address.
    static var uhidNodes: [InputDevice] {
        get throws {
            try InputDevicesFile.parse(
                """
                I: Bus=0005 Vendor=0c45 Product=8009 Version=0105
                N: Name="Aula F87"
                P: Phys=00:1a:7d:da:71:00
                S: Sysfs=/devices/virtual/misc/uhid/0005:0C45:8009.0001/input/input1
                U: Uniq=\(aula.description.lowercased())
                H: Handlers=sysrq kbd leds event0
                B: PROP=0
                B: EV=12001f
                B: KEY=3f000307ff 0 0 483ffff17aff32d bfd4444600000000 1 130c730b17c000 267bfad9415fed 9e168000004400 10000002 0 fffffffffffffffe

                """
            )
        }
    }

    @Test("the uhid node counts as the Bluetooth keyboard once, and no longer once BlueZ says disconnected")
    func uhidNodeFollowsBlueZ() async throws {
        try await withFirmwareDaemon(devices: [.aulaF87]) { daemon in
            let service = try daemon.service
            await service.updateEvdevDevices(try Self.uhidNodes)
            var presence = await service.presence()
            #expect(presence.attached)
            #expect(
                presence.keyboards == [
                    HardwareKeyboard(source: .bluetooth, id: Self.aula.description, name: "Aula F87")
                ])

            try await daemon.bluez.setConnected(Self.aula, false)
            #expect(await eventually { await !service.presence().attached })
            presence = await service.presence()
            #expect(presence.keyboards.isEmpty)

            try await daemon.bluez.setConnected(Self.aula, true)
            #expect(await eventually { await service.presence().attached })
            #expect(await service.presence().keyboards.count == 1)
        }
    }
}
