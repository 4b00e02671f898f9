import KeyboardLinkBlueZ
import KeyboardLinkDBus

/// bluetoothd's auto-connection of LE HID devices, as src/device.c does it (BlueZ 5.66 and later).
///
/// The `hog` profile enables auto-connection for every paired HOGP device: the kernel connects it as soon as it
/// advertises. `Device1.Disconnect` turns that off (`disable_auto_connect`) only when the device is not trusted at
/// that moment (`dev_disconnect`: "If device is not trusted disable connections through passive scanning until
/// Device1.Connect is called"); changing `Trusted` afterwards does not turn it back on; `Device1.Connect` does.
/// So a trusted keyboard that keeps advertising is connected again within moments of a `Disconnect`.
extension SimulatedBlueZ {
    /// How long the simulated kernel takes to connect an advertising auto-connect device.
    static var autoConnectDelay: Duration { .milliseconds(150) }

    /// `Device1.Disconnect`: disconnects, answering once the link is down; an untrusted LE HID device also loses its
    /// auto-connection until `Connect`; a paired one that still auto-connects and keeps advertising comes back after
    /// ``autoConnectDelay``.
    ///
    /// As bluetoothd (`device_request_disconnect` in src/device.c), the link stays up for the disconnect timer
    /// first (``disconnectTimer``): `Connected` and `ServicesResolved` stay true, and `StartNotify` fails with
    /// `NotConnected` ("Device is disconnecting", src/gatt-client.c). A `Disconnect` made meanwhile is answered with
    /// the first.
    func disconnectDevice(_ address: BluetoothAddress) async throws {
        if let pending = pendingDisconnects[address] {
            try await pending.value
            return
        }
        guard let entry = entries[address] else { throw DBusError(BlueZ.Error.doesNotExist, "Does Not Exist") }
        guard entry.device.connected else { return }
        let autoConnects = entry.device.uuids.contains(SimulatedDevice.hogp)
        if autoConnects, !entry.device.trusted {
            entries[address]?.autoConnectDisabled = true
        }
        let timer = disconnectTimer
        let link = entry.linkChanges
        let disconnection = Task {
            await gatt.setDisconnecting(address, true)
            try? await Task.sleep(for: timer)
            if entries[address]?.linkChanges == link { try await setConnected(address, false) }
            await gatt.setDisconnecting(address, false)
        }
        pendingDisconnects[address] = disconnection
        defer { pendingDisconnects[address] = nil }
        try await disconnection.value
        guard autoConnects, entry.device.paired, entry.device.advertisesWhileDisconnected,
            entries[address]?.autoConnectDisabled == false
        else { return }
        Task { [weak self] in
            try? await Task.sleep(for: Self.autoConnectDelay)
            await self?.autoConnect(address)
        }
    }

    /// Whether BlueZ would connect `address` by itself when it advertises (tests read it).
    package func autoConnects(_ address: BluetoothAddress) -> Bool {
        guard let entry = entries[address] else { return false }
        return entry.device.uuids.contains(SimulatedDevice.hogp) && entry.device.paired && !entry.autoConnectDisabled
    }

    private func autoConnect(_ address: BluetoothAddress) async {
        guard let entry = entries[address], !entry.device.connected, !entry.autoConnectDisabled,
            entry.device.advertisesWhileDisconnected
        else { return }
        try? await setConnected(address, true)
    }

    /// Makes the next connections of `address` happen as bluetoothd 5.66 sometimes makes them: `Connected` turns
    /// true without a `PropertiesChanged` (when the ATT channel of a `Device1.Connect` comes up before the kernel's
    /// connection event, `att_connect_cb` marks the device connected and `device_add_connection` then emits
    /// nothing, src/device.c); `ServicesResolved` is announced as usual.
    package func setConnectsWithoutAnnouncing(_ address: BluetoothAddress, _ on: Bool) {
        if on {
            unannouncedConnections.insert(address)
        } else {
            unannouncedConnections.remove(address)
        }
    }

    /// Makes the next disconnections of `address` happen as bluetoothd announces a link that goes down and straight
    /// back up (a disconnect and connect, as the healing ladder's reconnect step makes): `ServicesResolved` turns
    /// false, `Connected` false without a `PropertiesChanged`. bluetoothd batches property changes and sends the
    /// values of the moment, which are true again by then (docs/real-bluez.md, finding 15).
    package func setDisconnectsWithoutAnnouncing(_ address: BluetoothAddress, _ on: Bool) {
        if on {
            unannouncedDisconnections.insert(address)
        } else {
            unannouncedDisconnections.remove(address)
        }
    }

    /// Sets how long a `Device1.Disconnect` keeps the link up before taking it down (bluetoothd's 2 s
    /// `DISCONNECT_TIMER`; 200 ms by default, to keep tests short).
    package func setDisconnectTimer(_ timer: Duration) {
        disconnectTimer = timer
    }

    /// Makes the disconnections of `address` announce `Connected` false `linger` after `ServicesResolved` false
    /// (nil: together), as bluetoothd 5.66 did in the rig: 4.3 s apart (docs/real-bluez.md, finding 18).
    /// `Device1.Disconnect` answers, and `Device1.Connect` goes on, once `Connected` false was announced; a test that
    /// connects the device again itself waits for that too.
    package func setConnectedLingers(_ address: BluetoothAddress, _ linger: Duration?) {
        connectedLingers[address] = linger
    }

    /// Makes `Device1.Connect` of `address` answer before the link's signals (`Connected`, the GATT objects,
    /// `ServicesResolved`), which follow `delay` later (nil: before the answer). bluetoothd sends a method's reply at
    /// once and batches property changes in an idle handler, so a client can hold the answer before it sees the
    /// link up.
    package func setAnnouncesConnectionAfterAnswering(_ address: BluetoothAddress, _ delay: Duration?) {
        connectionAnnouncementDelays[address] = delay
    }

    /// Makes connections announce `ServicesResolved` first and export the GATT objects 50 ms later: the order in
    /// which bluetoothd 5.66's signals arrive (gdbus sends the property change, then the objects'
    /// `InterfacesAdded`). Off by default: most tests want a keyboard whose objects are there when it resolves.
    package func setAnnouncesServicesResolvedFirst(_ on: Bool) {
        announcesServicesResolvedFirst = on
    }
}
