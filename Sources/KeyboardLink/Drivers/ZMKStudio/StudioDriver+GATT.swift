import KeyboardLinkBlueZ

extension StudioDriver {
    /// Connects to a keyboard's ZMK Studio characteristic through BlueZ: starts its indications (fed to the
    /// link as they arrive) and writes request frames with write requests.
    /// - Parameter lockStates: given every lock state the link learns, in order (``StudioDriverLink``).
    /// - Returns: nil when the keyboard has no ZMK Studio service.
    /// - Throws: `DriverError.notConnected` when indications cannot be started.
    package static func connect(
        client: GATTClient, timeout: Duration = .seconds(10),
        lockStates: AsyncStream<StudioLockState>.Continuation? = nil
    ) async throws(DriverError) -> StudioDriver? {
        let database = await client.database()
        guard let characteristic = database.characteristic(characteristicUUID, inService: serviceUUID) else {
            return nil
        }
        let notifications: GATTNotifications
        do {
            notifications = try await client.notifications(from: characteristic)
        } catch {
            throw .notConnected("cannot start ZMK Studio indications: \(error)")
        }
        let link = StudioDriverLink(timeout: timeout, lockStates: lockStates) { frame throws(DriverError) in
            do {
                try await client.write(frame, to: characteristic, type: .request)
            } catch {
                throw .notConnected("writing to the keyboard's ZMK Studio characteristic failed: \(error)")
            }
        }
        let reader = Task {
            for await chunk in notifications {
                await link.receive(chunk)
            }
            await link.connectionClosed()
        }
        return StudioDriver(link: link) {
            // Awaited: the next driver on this connection starts notifications again, and a StopNotify arriving
            // after its StartNotify would end its session (bluetoothd keeps one per client).
            await notifications.stop()
            reader.cancel()
            await link.connectionClosed()
        }
    }
}
