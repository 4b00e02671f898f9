internal import CDBus

extension Message {
    /// The message in the D-Bus wire format (header and body), as libdbus would send it.
    /// - Throws: ``DBusError`` when the message cannot be built (see ``BusConnection/send(_:)``).
    public func marshalled() throws -> [UInt8] {
        try MessageCodec.marshalledBytes(self, serial: serial != 0 ? serial : 1, templates: nil)
    }

    /// Reads a message from its wire format: libdbus validates it (`dbus_message_demarshal`), then it is
    /// decoded exactly as a received message is.
    /// - Throws: ``DBusError`` (`InvalidArgs`) when the bytes are not a valid message.
    public init(marshalled bytes: [UInt8]) throws {
        try self.init(marshalled: bytes, strings: nil)
    }

    /// Reads a message from its wire format, reusing header names from `strings` as a connection does.
    init(marshalled bytes: [UInt8], strings: HeaderStringCache?) throws {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                dbus_message_demarshal($0.baseAddress, Int32(clamping: $0.count), &error)
            }
        }
        guard let raw else {
            let detail = error.message.map { String(cString: $0) } ?? "not a D-Bus message"
            throw DBusError.invalidArgs("cannot read the message: \(detail)")
        }
        defer { dbus_message_unref(raw) }
        self = try MessageCodec.decode(raw, strings: strings)
    }
}

extension MessageCodec {
    /// The wire format of `message` with the given serial, built as a connection builds it (from `templates` when
    /// given).
    /// - Throws: ``DBusError`` when the message cannot be built.
    static func marshalledBytes(_ message: Message, serial: UInt32, templates: MessageTemplateCache?) throws
        -> [UInt8]
    {
        let raw = try makeMessage(message, templates: templates)
        defer { dbus_message_unref(raw) }
        dbus_message_set_serial(raw, max(1, serial))
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else {
            throw DBusError.failed("out of memory marshalling a message")
        }
        defer { dbus_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }
}
