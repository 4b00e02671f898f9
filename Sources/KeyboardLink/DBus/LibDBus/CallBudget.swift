internal import CDBus
import Glibc

/// The limits a serving connection puts on what callers send, checked from the header and the arguments' lengths as
/// libdbus holds them, before any argument is decoded (``BusConnection/limitCalls(_:)``).
///
/// A call over a limit is answered `org.freedesktop.DBus.Error.LimitsExceeded`, naming the limit.
public struct CallLimits: Sendable, Equatable {
    /// The largest body, in bytes on the wire, a method call may carry, unless its method says otherwise
    /// (``DBusMethod/acceptingBodies(upTo:)``); nil for no limit.
    public var maximumBodySize: Int?
    /// How many calls one caller (one unique bus name) may have waiting for an answer at once; nil for no limit.
    /// Only calls answered later count (a handler that suspends): one answered at once never waits.
    public var maximumCallsInFlightPerCaller: Int?
    /// The most dynamic values (``DBusValue``s; a container and each element count one) any received message,
    /// call, reply or signal, from whatever peer, is decoded to; a larger one is refused with `LimitsExceeded`.
    /// nil for no limit.
    public var maximumValuesPerMessage: Int?

    public init(
        maximumBodySize: Int? = nil, maximumCallsInFlightPerCaller: Int? = nil, maximumValuesPerMessage: Int? = nil
    ) {
        self.maximumBodySize = maximumBodySize
        self.maximumCallsInFlightPerCaller = maximumCallsInFlightPerCaller
        self.maximumValuesPerMessage = maximumValuesPerMessage
    }

    /// ``maximumValuesPerMessage``, or no limit.
    var valuesPerMessage: Int { maximumValuesPerMessage ?? .max }

    /// No limits: what a connection starts with.
    public static let none = CallLimits()
}

extension BusConnection {
    /// Puts `limits` on the method calls this connection serves from now on.
    public func limitCalls(_ limits: CallLimits) async {
        await onQueue { self.callLimits = limits }
    }

    /// The error for a call over its body limit, or nil when it is within it: the size is read from the lengths in
    /// the message (``MessageCodec/bodySize(of:)``), nothing is decoded.
    func bodyLimitError(_ call: OpaquePointer, of body: MethodBody) -> DBusError? {
        guard let limit = body.maximumBodySize ?? callLimits.maximumBodySize else { return nil }
        let size = MessageCodec.bodySize(of: call)
        guard size > limit else { return nil }
        return .limitsExceeded(
            "\(body.name)'s arguments are \(size) bytes; at most \(limit) are accepted (docs/dbus-api.md, "
                + "\"Authorization\")")
    }

    /// Counts a call that will be answered later against its caller's limit; the error when the caller already has as
    /// many waiting as allowed. Each successful reservation is released with ``releaseCallInFlight(of:)``.
    func reserveCallInFlight(of sender: BusName?) -> DBusError? {
        guard let limit = callLimits.maximumCallsInFlightPerCaller, let sender else { return nil }
        let waiting = callsInFlight[sender, default: 0]
        guard waiting < limit else {
            return .limitsExceeded(
                "\(sender.rawValue) already has \(waiting) calls waiting for an answer; at most \(limit) may wait at once"
            )
        }
        callsInFlight[sender] = waiting + 1
        return nil
    }

    /// Ends one reservation of ``reserveCallInFlight(of:)``.
    func releaseCallInFlight(of sender: BusName?) {
        guard let sender, let waiting = callsInFlight[sender] else { return }
        callsInFlight[sender] = waiting > 1 ? waiting - 1 : nil
    }
}

extension DBusError {
    /// `org.freedesktop.DBus.Error.LimitsExceeded`: the caller sent more than a limit allows.
    public static func limitsExceeded(_ message: String) -> DBusError {
        DBusError(.limitsExceeded, message)
    }
}

extension MessageCodec {
    /// The size in bytes of a message's body as it is on the wire (padding aside), from the lengths libdbus keeps:
    /// an array's length is read from its header without visiting its elements, a string's with `strlen`, so the
    /// cost grows with the number of top-level values and nested structures, never with an array's length.
    static func bodySize(of message: OpaquePointer) -> Int {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return 0 }
        return sizeOfValues(&iterator)
    }

    /// The message's first argument when it is a string of at most `limit` bytes (libdbus validated its UTF-8); nil
    /// otherwise. Nothing else of the body is read.
    static func leadingString(of message: OpaquePointer, limit: Int) -> String? {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0,
            dbus_message_iter_get_arg_type(&iterator) == typeString
        else { return nil }
        var text: UnsafePointer<CChar>?
        withUnsafeMutablePointer(to: &text) { dbus_message_iter_get_basic(&iterator, $0) }
        guard let text, strnlen(text, limit + 1) <= limit else { return nil }
        return String(cString: text)
    }

    /// The sizes of the values from the iterator's position to the end of its container.
    private static func sizeOfValues(_ iterator: inout DBusMessageIter) -> Int {
        var total = 0
        while true {
            let type = dbus_message_iter_get_arg_type(&iterator)
            if type == typeInvalid { return total }
            total += sizeOfValue(type, &iterator)
            guard dbus_message_iter_next(&iterator) != 0 else { return total }
        }
    }

    private static func sizeOfValue(_ type: Int32, _ iterator: inout DBusMessageIter) -> Int {
        switch type {
        case typeArray:
            // libdbus answers the length for an iterator inside the array, not one at it.
            var elements = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &elements)
            return 4 + Int(kblink_message_iter_array_bytes(&elements))
        case typeString, typeObjectPath, typeSignature:
            var text: UnsafePointer<CChar>?
            withUnsafeMutablePointer(to: &text) { dbus_message_iter_get_basic(&iterator, $0) }
            return 5 + (text.map { strlen($0) } ?? 0)
        case typeVariant, typeStruct, typeDictEntry:
            // Containers that are not arrays hold a fixed number of values: libdbus bounds their nesting (64).
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return 8 + sizeOfValues(&inner)
        default:
            return 8
        }
    }
}
