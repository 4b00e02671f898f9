import KeyboardLinkDBus

/// A GATT operation that failed, with BlueZ's error mapped to what it means for the caller.
package struct GATTError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// `org.bluez.Error.NotPermitted`: the characteristic does not allow the operation (no `read` flag, ...).
        case notPermitted
        /// `org.bluez.Error.NotAuthorized`: the link is not encrypted or not authenticated enough: pair first.
        case notAuthorized
        /// `org.bluez.Error.InProgress`: BlueZ is busy with the same operation; retried with a short backoff.
        case inProgress
        /// `org.bluez.Error.NotSupported`: the peer does not support it.
        case notSupported
        /// `org.bluez.Error.InvalidOffset`: the offset lies past the end of the value.
        case invalidOffset
        /// `org.bluez.Error.InvalidValueLength`: the value written is too long or too short.
        case invalidValueLength
        /// The device is not connected (`NotConnected`, or `Failed: Not connected`).
        case notConnected
        /// The object is gone: the device disconnected and BlueZ removed its GATT objects, or it was removed.
        case objectGone
        /// Services were not resolved within the wait.
        case servicesNotResolved
        /// BlueZ did not answer in time.
        case timedOut
        /// BlueZ is not on the bus.
        case bluezUnavailable
        /// The task was cancelled.
        case canceled
        /// `org.bluez.Error.Failed` or any other error.
        case failed
    }

    /// What went wrong.
    package var kind: Kind
    /// What was being done, for the message (`read 0x2a29 at /org/bluez/...`).
    package var operation: String
    /// BlueZ's own message, or ours when the error did not come from BlueZ.
    package var message: String
    /// The D-Bus error behind it, if any.
    package var dbusError: DBusError?

    /// Creates an error.
    package init(_ kind: Kind, operation: String, message: String, dbusError: DBusError? = nil) {
        self.kind = kind
        self.operation = operation
        self.message = message
        self.dbusError = dbusError
    }

    /// Maps any error thrown by a D-Bus call to BlueZ.
    package init(_ error: any Error, operation: String) {
        if let error = error as? GATTError {
            self = error
            return
        }
        if error is CancellationError {
            self.init(.canceled, operation: operation, message: "canceled")
            return
        }
        guard let error = error as? DBusError else {
            self.init(.failed, operation: operation, message: "\(error)")
            return
        }
        self.init(Self.kind(of: error), operation: operation, message: error.message, dbusError: error)
    }

    /// The kind of a D-Bus error from BlueZ.
    package static func kind(of error: DBusError) -> Kind {
        switch error.name.rawValue {
        case "org.bluez.Error.NotPermitted": return .notPermitted
        case "org.bluez.Error.NotAuthorized": return .notAuthorized
        case "org.bluez.Error.InProgress": return .inProgress
        case "org.bluez.Error.NotSupported": return .notSupported
        case "org.bluez.Error.InvalidOffset": return .invalidOffset
        case "org.bluez.Error.InvalidValueLength": return .invalidValueLength
        case "org.bluez.Error.NotConnected": return .notConnected
        case "org.bluez.Error.Failed":
            // bluetoothd answers reads on a link that just dropped with `Failed: Not connected`.
            return error.message.lowercased().containsText("not connected") ? .notConnected : .failed
        case ErrorName.unknownObject.rawValue, ErrorName.unknownInterface.rawValue, ErrorName.unknownMethod.rawValue:
            return .objectGone
        case ErrorName.serviceUnknown.rawValue, ErrorName.nameHasNoOwner.rawValue, ErrorName.disconnected.rawValue:
            return .bluezUnavailable
        case ErrorName.noReply.rawValue, ErrorName.timedOut.rawValue:
            return .timedOut
        default:
            return .failed
        }
    }

    /// The link is gone (or going): the caller should stop and try again after the device reconnects.
    package var meansDisconnected: Bool {
        kind == .notConnected || kind == .objectGone
    }

    /// What the kind means for a person, with what to do.
    package var advice: String {
        switch kind {
        case .notPermitted: "the keyboard does not allow this"
        case .notAuthorized: "the keyboard wants an encrypted link: pair it first"
        case .inProgress: "BlueZ is busy with the same operation; try again"
        case .notSupported: "the keyboard does not support this"
        case .invalidOffset: "the offset lies past the end of the value"
        case .invalidValueLength: "the value has the wrong length for this characteristic"
        case .notConnected: "the keyboard is not connected; wake it by pressing a key"
        case .objectGone: "the keyboard disconnected (BlueZ removed its GATT objects)"
        case .servicesNotResolved: "BlueZ has not finished discovering the keyboard's services; try again"
        case .timedOut: "BlueZ did not answer in time"
        case .bluezUnavailable: "BlueZ is not running; start it with 'systemctl start bluetooth'"
        case .canceled: "canceled"
        case .failed: "BlueZ reported a failure"
        }
    }

    package var description: String {
        message.isEmpty || message == advice
            ? "\(operation) failed: \(advice)" : "\(operation) failed: \(advice) (\(message))"
    }
}
