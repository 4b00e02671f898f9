import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkSupport

/// kblinkd as a BlueZ battery provider: registers with `org.bluez.BatteryProviderManager1` on every adapter (which
/// bluetoothd serves only with experimental features, `bluetoothd -E`) and exports one `org.bluez.BatteryProvider1`
/// object per battery it supplies (``ProvidedBattery``), under an ObjectManager of its own at ``root``. bluetoothd
/// publishes each as `org.bluez.Battery1` on the device, where UPower and the desktop's power menu find it.
///
/// It follows the latest state the registry hands it (``offer(_:adapters:blueZRunning:)``) in a task of its own, so
/// that a slow bluetoothd never delays the registry. When BlueZ restarts it registers again (bluetoothd forgets its
/// providers); without the manager (no `-E`) it says so once per adapter and supplies nothing.
actor BatteryProviderPublisher {
    /// The provider root: outside `/org/kblink1`, so that kblinkd's own ObjectManager does not list these objects.
    static let root: ObjectPath = "/org/kblink/BatteryProvider"

    struct Offer: Sendable {
        var batteries: [ProvidedBattery]
        var adapters: [ObjectPath]
        var blueZRunning: Bool
    }

    let connection: BusConnection
    let log: @Sendable (LogLevel, String) -> Void
    private let offers: AsyncStream<Offer>
    private let continuation: AsyncStream<Offer>.Continuation
    private var task: Task<Void, Never>?
    /// Per adapter: registered (true), or without a battery provider manager (false).
    private var adapters: [ObjectPath: Bool] = [:]
    private var exported: [BluetoothAddress: ProvidedBattery] = [:]

    init(connection: BusConnection, log: @escaping @Sendable (LogLevel, String) -> Void) {
        self.connection = connection
        self.log = log
        (offers, continuation) = AsyncStream.makeStream(of: Offer.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts following offers.
    func start() async {
        await connection.addObjectManager(at: Self.root)
        let offers = self.offers
        task = Task { [weak self] in
            for await offer in offers {
                await self?.apply(offer)
            }
        }
    }

    /// Stops following offers.
    func stop() {
        task?.cancel()
        continuation.finish()
    }

    /// Hands over the latest state; only the newest waiting one is applied.
    nonisolated func offer(_ batteries: [ProvidedBattery], adapters: [ObjectPath], blueZRunning: Bool) {
        continuation.yield(Offer(batteries: batteries, adapters: adapters, blueZRunning: blueZRunning))
    }

    /// The batteries exported now (for tests).
    var supplied: [ProvidedBattery] { exported.values.sorted { $0.address < $1.address } }

    static func objectPath(_ address: BluetoothAddress) -> ObjectPath {
        root.appending(element: address.pathElement)
    }

    private func apply(_ offer: Offer) async {
        guard offer.blueZRunning else {
            adapters.removeAll()
            return
        }
        for adapter in offer.adapters where adapters[adapter] == nil {
            adapters[adapter] = await register(on: adapter)
        }
        for adapter in adapters.keys where !offer.adapters.contains(adapter) { adapters[adapter] = nil }
        let wanted = Dictionary(uniqueKeysWithValues: offer.batteries.map { ($0.address, $0) })
        for (address, _) in exported where wanted[address] == nil {
            exported[address] = nil
            await connection.unexport(at: Self.objectPath(address))
        }
        for (address, battery) in wanted.sorted(by: { $0.key < $1.key }) {
            let path = Self.objectPath(address)
            if let known = exported[address] {
                guard known != battery else { continue }
                if known.source == battery.source && known.device == battery.device {
                    try? await connection.setProperty(
                        "Percentage", of: BlueZ.batteryProviderInterface, at: path,
                        to: .byte(battery.percentage))
                    exported[address] = battery
                    continue
                }
                await connection.unexport(at: path)
            }
            do {
                try await connection.export(Self.interface(battery), at: path)
                exported[address] = battery
                log(.info, "supplying the battery of \(address) to BlueZ: \(battery.percentage) % (\(battery.source))")
            } catch {
                log(.warning, "cannot export the battery of \(address) for BlueZ: \(error)")
            }
        }
    }

    /// Registers on one adapter; false when the adapter has no battery provider manager.
    private func register(on adapter: ObjectPath) async -> Bool {
        do {
            _ = try await connection.call(
                destination: BlueZ.service, path: adapter, interface: BlueZ.batteryProviderManagerInterface,
                member: "RegisterBatteryProvider", [.objectPath(Self.root)])
            log(.info, "registered as a battery provider on \(adapter)")
            return true
        } catch let error as DBusError where error.name == BlueZ.Error.alreadyExists {
            return true
        } catch {
            log(
                .info,
                "no battery provider on \(adapter) (\(error)): bluetoothd offers BatteryProviderManager1 only with "
                    + "experimental features (bluetoothd -E); BlueZ's own batteries are shown as they are")
            return false
        }
    }

    static func interface(_ battery: ProvidedBattery) -> DBusInterface {
        DBusInterface(
            BlueZ.batteryProviderInterface,
            properties: [
                DBusProperty("Device", type: .objectPath, changes: .const, initial: .objectPath(battery.device)),
                DBusProperty("Percentage", type: .byte, initial: .byte(battery.percentage)),
                DBusProperty("Source", type: .string, changes: .const, initial: .string(battery.source)),
            ])
    }
}
