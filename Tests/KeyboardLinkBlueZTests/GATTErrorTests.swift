import KeyboardLinkDBus
import Testing

@testable import KeyboardLinkBlueZ

@Suite struct GATTErrorTests {
    @Test(arguments: [
        ("org.bluez.Error.NotPermitted", "Read not permitted", GATTError.Kind.notPermitted),
        ("org.bluez.Error.NotAuthorized", "Operation Not Authorized", .notAuthorized),
        ("org.bluez.Error.InProgress", "In Progress", .inProgress),
        ("org.bluez.Error.NotSupported", "Operation is not supported", .notSupported),
        ("org.bluez.Error.InvalidOffset", "Invalid offset", .invalidOffset),
        ("org.bluez.Error.InvalidValueLength", "Invalid Length", .invalidValueLength),
        ("org.bluez.Error.NotConnected", "Not Connected", .notConnected),
        ("org.bluez.Error.Failed", "Not connected", .notConnected),
        ("org.bluez.Error.Failed", "Operation failed with ATT error: 0x0e", .failed),
        ("org.freedesktop.DBus.Error.UnknownObject", "no object", .objectGone),
        ("org.freedesktop.DBus.Error.UnknownMethod", "no method", .objectGone),
        ("org.freedesktop.DBus.Error.ServiceUnknown", "no bluez", .bluezUnavailable),
        ("org.freedesktop.DBus.Error.NoReply", "no reply", .timedOut),
        ("org.example.Other", "?", .failed),
    ])
    func mapping(name: String, message: String, kind: GATTError.Kind) throws {
        let error = GATTError(DBusError(try ErrorName(name), message), operation: "read 0x2a29")
        #expect(error.kind == kind)
        #expect(error.message == message)
        #expect(error.dbusError?.name.rawValue == name)
    }

    @Test func cancellationAndOtherErrors() {
        #expect(GATTError(CancellationError(), operation: "read").kind == .canceled)
        struct Odd: Error {}
        #expect(GATTError(Odd(), operation: "read").kind == .failed)
    }

    @Test func descriptionSaysWhatAndWhatToDo() throws {
        let error = GATTError(
            DBusError(ErrorName("org.bluez.Error.NotAuthorized"), "Operation Not Authorized"),
            operation: "read 0x2a25 at /org/bluez/hci0/dev_X/service0010/char0015")
        #expect(
            error.description
                == "read 0x2a25 at /org/bluez/hci0/dev_X/service0010/char0015 failed: the keyboard wants an encrypted link: pair it first (Operation Not Authorized)"
        )
    }

    @Test func disconnectionKinds() {
        let disconnected = GATTError.Kind.allCases.filter {
            GATTError($0, operation: "", message: "").meansDisconnected
        }
        #expect(disconnected == [.notConnected, .objectGone])
    }
}
