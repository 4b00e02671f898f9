internal import CDBus
import Glibc

/// Converts between ``Message`` and libdbus's `DBusMessage`, through `DBusMessageIter`.
///
/// Every name in a ``Message`` is a validated type and every value is checked against its declared type
/// before anything reaches libdbus, which aborts the process on invalid input.
enum MessageCodec {
    // Type codes (libdbus's DBUS_TYPE_* macros are casts Swift cannot import).
    static let typeByte = Int32(UInt8(ascii: "y"))
    static let typeBoolean = Int32(UInt8(ascii: "b"))
    static let typeInt16 = Int32(UInt8(ascii: "n"))
    static let typeUInt16 = Int32(UInt8(ascii: "q"))
    static let typeInt32 = Int32(UInt8(ascii: "i"))
    static let typeUInt32 = Int32(UInt8(ascii: "u"))
    static let typeInt64 = Int32(UInt8(ascii: "x"))
    static let typeUInt64 = Int32(UInt8(ascii: "t"))
    static let typeDouble = Int32(UInt8(ascii: "d"))
    static let typeString = Int32(UInt8(ascii: "s"))
    static let typeObjectPath = Int32(UInt8(ascii: "o"))
    static let typeSignature = Int32(UInt8(ascii: "g"))
    static let typeUnixFD = Int32(UInt8(ascii: "h"))
    static let typeArray = Int32(UInt8(ascii: "a"))
    static let typeVariant = Int32(UInt8(ascii: "v"))
    static let typeStruct = Int32(UInt8(ascii: "r"))
    static let typeDictEntry = Int32(UInt8(ascii: "e"))
    static let typeInvalid = Int32(0)

    static let messageTypeMethodCall = Int32(1)
    static let messageTypeMethodReturn = Int32(2)
    static let messageTypeError = Int32(3)
    static let messageTypeSignal = Int32(4)

    // MARK: Encoding

    /// Builds a libdbus message; the caller owns the returned reference.
    /// - Throws: ``DBusError`` (`InvalidArgs`) for a value libdbus would refuse.
    /// - Parameter checked: false only for bodies the object server built from values it checked when they were
    ///   stored (property values), where checking again would double the cost of large replies.
    /// - Parameter templates: the sending connection's method-call templates (on its loop thread), or nil.
    static func makeMessage(_ message: Message, checked: Bool = true, templates: MessageTemplateCache? = nil) throws
        -> OpaquePointer
    {
        // Whatever `checked` says: libdbus writes the body's signature length in one byte and, past 255, loops forever
        // in dbus_message_iter_append_basic.
        try checkBodySignatureLength(message.bodySignatureLength)
        if checked {
            for value in message.body {
                try checkEncodable(value)
            }
        }
        if let templates, message.kind == .methodReturn, let replySerial = message.replySerial {
            // A return is always flagged no-reply (below), as its template is.
            guard let raw = templates.newReturn(destination: message.destination, replySerial: replySerial) else {
                throw DBusError.failed("out of memory building a D-Bus message")
            }
            return try appendBody(message, to: raw)
        }
        guard let raw = newMessage(message, templates: templates) else {
            throw DBusError.failed("out of memory building a D-Bus message")
        }
        var ok = true
        // A method call got its destination from dbus_message_new_method_call; setting a header field again
        // rewrites the header (about as much work as appending the arguments of a small call).
        if message.kind != .methodCall, let destination = message.destination {
            ok = ok && dbus_message_set_destination(raw, destination.rawValue) != 0
        }
        if let replySerial = message.replySerial {
            ok = ok && dbus_message_set_reply_serial(raw, replySerial) != 0
        }
        if message.noReplyExpected || message.kind != .methodCall {
            dbus_message_set_no_reply(raw, 1)
        }
        if message.allowsInteractiveAuthorization, message.kind == .methodCall {
            dbus_message_set_allow_interactive_authorization(raw, 1)
        }
        guard ok else {
            dbus_message_unref(raw)
            throw DBusError.failed("out of memory building a D-Bus message")
        }
        return try appendBody(message, to: raw)
    }

    /// Appends the message's body to `raw` and returns it; releases it and throws when libdbus runs out of memory.
    private static func appendBody(_ message: Message, to raw: OpaquePointer) throws -> OpaquePointer {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in message.body {
            guard append(value, to: &iterator) else {
                dbus_message_unref(raw)
                throw DBusError.failed("out of memory building a D-Bus message")
            }
        }
        return raw
    }

    private static func newMessage(_ message: Message, templates: MessageTemplateCache?) -> OpaquePointer? {
        switch message.kind {
        case .methodCall:
            guard let path = message.path, let member = message.member else { return nil }
            if let templates {
                return templates.newCall(
                    destination: message.destination, path: path, interface: message.interface, member: member)
            }
            return dbus_message_new_method_call(
                message.destination?.rawValue, path.rawValue, message.interface?.rawValue, member.rawValue)
        case .signal:
            guard let path = message.path, let interface = message.interface, let member = message.member else {
                return nil
            }
            return dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue)
        case .methodReturn:
            return dbus_message_new(messageTypeMethodReturn)
        case .error:
            guard let raw = dbus_message_new(messageTypeError) else { return nil }
            dbus_message_set_error_name(raw, (message.errorName ?? .failed).rawValue)
            return raw
        }
    }

    /// The longest signature D-Bus allows (its length is written in one byte), for a body as for a variant's value.
    static let maximumSignatureLength = 255

    /// Refuses a body libdbus would loop or abort on: a signature longer than 255 bytes, or a value that
    /// ``checkEncodable(_:)`` refuses.
    static func checkEncodable(body values: [DBusValue]) throws {
        try checkBodySignatureLength(values.reduce(0) { $0 + $1.type.signatureLength })
        for value in values {
            try checkEncodable(value)
        }
    }

    private static func checkBodySignatureLength(_ length: Int) throws {
        guard length <= maximumSignatureLength else {
            throw DBusError.invalidArgs(
                "the message body's signature is \(length) bytes long; D-Bus allows at most 255: "
                    + "send fewer arguments, or group them in an array or struct")
        }
    }

    /// Refuses what libdbus would abort on: strings with NUL, container elements of another type than
    /// declared, empty structs, signatures longer than 255 bytes, nesting deeper than the specification allows
    /// (see ``Nesting``). One pass over the value.
    static func checkEncodable(_ value: DBusValue) throws {
        let type = value.type
        try checkSignature(of: type, at: Nesting())
        try check(value, as: type, nesting: Nesting())
    }

    /// The containers around a value, which the D-Bus specification limits: in each signature (a message body's, or a
    /// variant's) at most 32 nested arrays and 32 nested structs (dict entries count as structs, as libdbus, GLib
    /// and dbus-daemon count them), and at most 64 containers in all, variants included. libdbus aborts the
    /// process on some of these and the bus drops the sender's connection on others, so they are refused here.
    struct Nesting {
        static let maximumArrays = 32
        static let maximumStructs = 32
        static let maximumTotal = 64

        /// Arrays around the value in the current signature.
        var arrays = 0
        /// Structs and dict entries around the value in the current signature.
        var structs = 0
        /// Every container around the value, across variants.
        var total = 0

        /// The nesting of an array's elements.
        func enteringArray() throws -> Nesting {
            guard arrays < Self.maximumArrays else {
                throw DBusError.invalidArgs(
                    "a value has more than \(Self.maximumArrays) nested arrays in one signature, the most D-Bus allows")
            }
            return try Nesting(arrays: arrays + 1, structs: structs, total: total).countedInTotal()
        }

        /// The nesting of a struct's fields, or of a dict entry's key and value.
        func enteringStruct() throws -> Nesting {
            guard structs < Self.maximumStructs else {
                throw DBusError.invalidArgs(
                    "a value has more than \(Self.maximumStructs) nested structs (dict entries included) in one "
                        + "signature, the most D-Bus allows")
            }
            return try Nesting(arrays: arrays, structs: structs + 1, total: total).countedInTotal()
        }

        /// The nesting of a variant's value: a signature of its own, one more container in all.
        func enteringVariant() throws -> Nesting {
            try Nesting(arrays: 0, structs: 0, total: total).countedInTotal()
        }

        private func countedInTotal() throws -> Nesting {
            guard total < Self.maximumTotal else {
                throw DBusError.invalidArgs(
                    "a value has more than \(Self.maximumTotal) nested containers (variants included), the most "
                        + "D-Bus allows")
            }
            return Nesting(arrays: arrays, structs: structs, total: total + 1)
        }
    }

    /// Checks a complete type that starts a signature (a value's, or a variant's): its length and its nesting, which
    /// an empty array's element type has even when no value shows it.
    private static func checkSignature(of type: DBusType, at nesting: Nesting) throws {
        let length = type.signatureLength
        guard length <= maximumSignatureLength else {
            throw DBusError.invalidArgs("a value's signature is \(length) bytes long; D-Bus allows at most 255")
        }
        try checkNesting(of: type, at: nesting)
    }

    private static func checkNesting(of type: DBusType, at nesting: Nesting) throws {
        switch type {
        case .array(let element):
            try checkNesting(of: element, at: try nesting.enteringArray())
        case .dictionary(let key, let value):
            let entry = try nesting.enteringArray().enteringStruct()
            try checkNesting(of: key, at: entry)
            try checkNesting(of: value, at: entry)
        case .structure(let fields):
            let inside = try nesting.enteringStruct()
            for field in fields { try checkNesting(of: field, at: inside) }
        default:
            break
        }
    }

    /// Checks `value` against `expected`, whose nesting ``checkSignature(of:at:)`` has checked; a variant's value
    /// starts a signature of its own, checked here.
    private static func check(_ value: DBusValue, as expected: DBusType, nesting: Nesting) throws {
        switch (value, expected) {
        case (.string(let text), .string):
            if let reason = NameValidation.checkStringPayload(text) { throw DBusError.invalidArgs(reason) }
        case (.variant(let inner), .variant):
            let innerType = inner.type
            let inside = try nesting.enteringVariant()
            try checkSignature(of: innerType, at: inside)
            try check(inner, as: innerType, nesting: inside)
        case (.array(let element, let values), .array(let expectedElement)):
            guard element == expectedElement else { throw mismatch(value, expected) }
            let inside = try nesting.enteringArray()
            for item in values { try check(item, as: element, nesting: inside) }
        case (.dictionary(let key, let valueType, let entries), .dictionary(let expectedKey, let expectedValue)):
            guard key == expectedKey, valueType == expectedValue else { throw mismatch(value, expected) }
            guard key.isBasic else { throw DBusError.invalidArgs("a dictionary key must be a basic type") }
            let inside = try nesting.enteringArray().enteringStruct()
            for entry in entries {
                try check(entry.key, as: key, nesting: inside)
                try check(entry.value, as: valueType, nesting: inside)
            }
        case (.structure(let fields), .structure(let expectedFields)):
            if fields.isEmpty { throw DBusError.invalidArgs("a struct cannot be empty") }
            guard fields.count == expectedFields.count else { throw mismatch(value, expected) }
            let inside = try nesting.enteringStruct()
            for (field, fieldType) in zip(fields, expectedFields) { try check(field, as: fieldType, nesting: inside) }
        case (.byte, .byte), (.boolean, .boolean), (.int16, .int16), (.uint16, .uint16), (.int32, .int32),
            (.uint32, .uint32), (.int64, .int64), (.uint64, .uint64), (.double, .double), (.objectPath, .objectPath),
            (.signature, .signature), (.unixFD, .unixFD):
            break
        default:
            throw mismatch(value, expected)
        }
    }

    private static func mismatch(_ value: DBusValue, _ expected: DBusType) -> DBusError {
        .invalidArgs("a container of '\(expected.signature)' holds a '\(value.type.signature)'")
    }

    private static func appendBasic<T>(_ iterator: inout DBusMessageIter, _ code: Int32, _ value: T) -> Bool {
        var copy = value
        return withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iterator, code, $0) != 0 }
    }

    private static func appendString(_ iterator: inout DBusMessageIter, _ code: Int32, _ text: String) -> Bool {
        text.withCString { pointer in
            var cString: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, code, &cString) != 0
        }
    }

    private static func container(
        _ iterator: inout DBusMessageIter, _ code: Int32, _ signature: String?,
        _ body: (inout DBusMessageIter) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        let opened: Bool
        if let signature {
            opened = dbus_message_iter_open_container(&iterator, code, signature, &sub) != 0
        } else {
            opened = dbus_message_iter_open_container(&iterator, code, nil, &sub) != 0
        }
        guard opened else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&iterator, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iterator, &sub) != 0
    }

    static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(let v): return appendBasic(&iterator, typeByte, v)
        case .boolean(let v): return appendBasic(&iterator, typeBoolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): return appendBasic(&iterator, typeInt16, v)
        case .uint16(let v): return appendBasic(&iterator, typeUInt16, v)
        case .int32(let v): return appendBasic(&iterator, typeInt32, v)
        case .uint32(let v): return appendBasic(&iterator, typeUInt32, v)
        case .int64(let v): return appendBasic(&iterator, typeInt64, v)
        case .uint64(let v): return appendBasic(&iterator, typeUInt64, v)
        case .double(let v): return appendBasic(&iterator, typeDouble, v)
        case .unixFD(let v): return appendBasic(&iterator, typeUnixFD, v)
        case .string(let v): return appendString(&iterator, typeString, v)
        case .objectPath(let v): return appendString(&iterator, typeObjectPath, v.rawValue)
        case .signature(let v): return appendString(&iterator, typeSignature, v.rawValue)
        case .variant(let inner):
            return container(&iterator, typeVariant, inner.type.signature) { append(inner, to: &$0) }
        case .array(let element, let values):
            return container(&iterator, typeArray, element.signature) { sub in
                values.allSatisfy { append($0, to: &sub) }
            }
        case .dictionary(let key, let valueType, let entries):
            return container(&iterator, typeArray, "{" + key.signature + valueType.signature + "}") { sub in
                entries.allSatisfy { entry in
                    container(&sub, typeDictEntry, nil) { entryIterator in
                        append(entry.key, to: &entryIterator) && append(entry.value, to: &entryIterator)
                    }
                }
            }
        case .structure(let fields):
            return container(&iterator, typeStruct, nil) { sub in fields.allSatisfy { append($0, to: &sub) } }
        }
    }

    // MARK: Decoding

    /// Decodes a libdbus message (borrowed, not consumed).
    /// - Parameter strings: the receiving connection's cache of header names (on its loop thread), or nil.
    /// - Throws: ``DBusError`` when libdbus hands us something the D-Bus specification does not allow.
    /// - Parameter valueBudget: the most dynamic values the body may decode to (``CallLimits/maximumValuesPerMessage``).
    static func decode(_ raw: OpaquePointer, strings: HeaderStringCache? = nil, valueBudget: Int = .max) throws
        -> Message
    {
        var message = try decodeHeader(raw, strings: strings)
        try attachBody(of: raw, to: &message, strings: strings, valueBudget: valueBudget)
        return message
    }

    /// Decodes a libdbus message's header fields only: its body stays empty (see ``attachBody(of:to:strings:)``).
    static func decodeHeader(_ raw: OpaquePointer, strings: HeaderStringCache? = nil) throws -> Message {
        let kind: Message.Kind
        switch dbus_message_get_type(raw) {
        case messageTypeMethodCall: kind = .methodCall
        case messageTypeMethodReturn: kind = .methodReturn
        case messageTypeError: kind = .error
        case messageTypeSignal: kind = .signal
        default: throw DBusError.failed("a message of unknown type")
        }
        var message = Message(kind: kind)
        message.serial = dbus_message_get_serial(raw)
        let replySerial = dbus_message_get_reply_serial(raw)
        if replySerial != 0 { message.replySerial = replySerial }
        // libdbus validated these header fields when it read the message.
        if let strings {
            if let text = dbus_message_get_path(raw) { message.path = strings.path(text) }
            if let text = dbus_message_get_interface(raw) { message.interface = strings.interface(text) }
            if let text = dbus_message_get_member(raw) { message.member = strings.member(text) }
            if let text = dbus_message_get_error_name(raw) { message.errorName = strings.errorName(text) }
            if let text = dbus_message_get_sender(raw) { message.sender = strings.sender(text) }
            if let text = dbus_message_get_destination(raw) { message.destination = strings.destination(text) }
        } else {
            if let text = dbus_message_get_path(raw) { message.path = ObjectPath(unchecked: String(cString: text)) }
            if let text = dbus_message_get_interface(raw) {
                message.interface = InterfaceName(unchecked: String(cString: text))
            }
            if let text = dbus_message_get_member(raw) {
                message.member = MemberName(unchecked: String(cString: text))
            }
            if let text = dbus_message_get_error_name(raw) {
                message.errorName = ErrorName(unchecked: String(cString: text))
            }
            if let text = dbus_message_get_sender(raw) { message.sender = BusName(unchecked: String(cString: text)) }
            if let text = dbus_message_get_destination(raw) {
                message.destination = BusName(unchecked: String(cString: text))
            }
        }
        message.noReplyExpected = dbus_message_get_no_reply(raw) != 0
        message.allowsInteractiveAuthorization = dbus_message_get_allow_interactive_authorization(raw) != 0
        return message
    }

    /// Gives `message`, decoded from `raw` by ``decodeHeader(_:strings:)``, its body: kept in wire form (one copy of
    /// the bytes, decoded when read) or, when it carries file descriptors, read through libdbus.
    static func attachBody(
        of raw: OpaquePointer, to message: inout Message, strings: HeaderStringCache? = nil, valueBudget: Int = .max
    ) throws {
        guard let signatureText = dbus_message_get_signature(raw), signatureText.pointee != 0 else { return }
        let signature = try strings?.signature(signatureText) ?? signatureCache.signature(signatureText)
        // File descriptors travel beside the bytes (anywhere in the body, variants included): such a body is read
        // through libdbus's iterator, which hands them out. The wire reader refuses them.
        let carriesDescriptors = dbus_message_contains_unix_fds(raw) != 0
        if !carriesDescriptors, let wire = wireBody(raw, signature, valueBudget: valueBudget) {
            message.storage = .wire(wire)
            return
        }
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return }
        // Owns the descriptors read below from the start, so that a failed read closes those read before it.
        let descriptors = carriesDescriptors ? ReceivedDescriptors() : nil
        var body: [DBusValue] = []
        body.reserveCapacity(signature.types.count)
        for type in signature.types {
            body.append(try read(type, from: &iterator, keepingDescriptorsIn: descriptors))
            _ = dbus_message_iter_next(&iterator)
        }
        message.body = body
        message.descriptors = descriptors
    }

    /// Parsed body signatures by their text: a connection sees the same few signatures over and over.
    static let signatureCache = SignatureCache()

    /// Keeps the body in wire form (one copy of the message; decoding happens when someone reads it); nil when that
    /// is not possible (a top-level `h`: file descriptors travel outside the bytes), and the iterator path decodes
    /// instead. A message that carries descriptors anywhere never gets here: ``decode(_:strings:)`` reads it with the
    /// iterator.
    private static func wireBody(_ raw: OpaquePointer, _ signature: Signature, valueBudget: Int) -> WireBody? {
        if signature.rawValue.utf8.contains(UInt8(ascii: "h")) { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { return nil }
        return try? WireBody(
            taking: UnsafeMutableRawPointer(buffer), count: Int(length), free: { dbus_free($0) }, signature: signature,
            valueBudget: valueBudget)
    }

    @inline(__always)
    private static func readBasic<T>(_ iterator: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iterator, $0) }
        return value
    }

    @inline(__always)
    private static func readCString(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Reads one value of a known type at the iterator's position.
    /// - Parameter descriptors: takes every file descriptor read (libdbus hands out a `dup()` the reader must close);
    ///   nil when the message carries none (`dbus_message_contains_unix_fds`), which saves an allocation per message.
    static func read(
        _ type: DBusType, from iterator: inout DBusMessageIter, keepingDescriptorsIn descriptors: ReceivedDescriptors?
    ) throws -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iterator)
        switch type {
        case .byte:
            try expect(code, typeByte, type)
            return .byte(readBasic(&iterator, UInt8(0)))
        case .boolean:
            try expect(code, typeBoolean, type)
            return .boolean(readBasic(&iterator, dbus_bool_t(0)) != 0)
        case .int16:
            try expect(code, typeInt16, type)
            return .int16(readBasic(&iterator, Int16(0)))
        case .uint16:
            try expect(code, typeUInt16, type)
            return .uint16(readBasic(&iterator, UInt16(0)))
        case .int32:
            try expect(code, typeInt32, type)
            return .int32(readBasic(&iterator, Int32(0)))
        case .uint32:
            try expect(code, typeUInt32, type)
            return .uint32(readBasic(&iterator, UInt32(0)))
        case .int64:
            try expect(code, typeInt64, type)
            return .int64(readBasic(&iterator, Int64(0)))
        case .uint64:
            try expect(code, typeUInt64, type)
            return .uint64(readBasic(&iterator, UInt64(0)))
        case .double:
            try expect(code, typeDouble, type)
            return .double(readBasic(&iterator, Double(0)))
        case .unixFD:
            try expect(code, typeUnixFD, type)
            let descriptor = readBasic(&iterator, Int32(-1))
            guard let descriptors else {
                // libdbus refuses an `h` in a message without descriptors; never leak one all the same.
                if descriptor >= 0 { _ = Glibc.close(descriptor) }
                throw DBusError.invalidArgs("a file descriptor in a message that carries none")
            }
            descriptors.adopt(descriptor)
            return .unixFD(descriptor)
        case .string:
            try expect(code, typeString, type)
            return .string(readCString(&iterator))
        case .objectPath:
            try expect(code, typeObjectPath, type)
            return .objectPath(ObjectPath(unchecked: readCString(&iterator)))
        case .signature:
            try expect(code, typeSignature, type)
            return .signature(try Signature(readCString(&iterator)))
        case .variant:
            try expect(code, typeVariant, type)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            let innerType = try variantType(&sub)
            return .variant(try read(innerType, from: &sub, keepingDescriptorsIn: descriptors))
        case .array(let element):
            try expect(code, typeArray, type)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var values: [DBusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != typeInvalid {
                values.append(try read(element, from: &sub, keepingDescriptorsIn: descriptors))
                _ = dbus_message_iter_next(&sub)
            }
            return .array(element, values)
        case .dictionary(let keyType, let valueType):
            try expect(code, typeArray, type)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var entries: [DBusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == typeDictEntry {
                var entryIterator = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &entryIterator)
                let key = try read(keyType, from: &entryIterator, keepingDescriptorsIn: descriptors)
                _ = dbus_message_iter_next(&entryIterator)
                let value = try read(valueType, from: &entryIterator, keepingDescriptorsIn: descriptors)
                entries.append(DBusDictionaryEntry(key: key, value: value))
                _ = dbus_message_iter_next(&sub)
            }
            return .dictionary(key: keyType, value: valueType, entries)
        case .structure(let fieldTypes):
            try expect(code, typeStruct, type)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            var fields: [DBusValue] = []
            fields.reserveCapacity(fieldTypes.count)
            for fieldType in fieldTypes {
                fields.append(try read(fieldType, from: &sub, keepingDescriptorsIn: descriptors))
                _ = dbus_message_iter_next(&sub)
            }
            return .structure(fields)
        }
    }

    /// The type inside a variant: basic types from the type code alone, containers from the signature.
    private static func variantType(_ iterator: inout DBusMessageIter) throws -> DBusType {
        switch dbus_message_iter_get_arg_type(&iterator) {
        case typeByte: return .byte
        case typeBoolean: return .boolean
        case typeInt16: return .int16
        case typeUInt16: return .uint16
        case typeInt32: return .int32
        case typeUInt32: return .uint32
        case typeInt64: return .int64
        case typeUInt64: return .uint64
        case typeDouble: return .double
        case typeString: return .string
        case typeObjectPath: return .objectPath
        case typeSignature: return .signature
        case typeUnixFD: return .unixFD
        case typeVariant: return .variant
        default:
            guard let text = dbus_message_iter_get_signature(&iterator) else {
                throw DBusError.failed("out of memory reading a variant")
            }
            defer { dbus_free(text) }
            let signature = try Signature(String(cString: text))
            guard signature.types.count == 1 else {
                throw DBusError.invalidSignature("a variant holds '\(signature.rawValue)', not one complete type")
            }
            return signature.types[0]
        }
    }

    @inline(__always)
    private static func expect(_ code: Int32, _ wanted: Int32, _ type: DBusType) throws {
        guard code == wanted else {
            throw DBusError.invalidSignature("expected '\(type.signature)' in the message body")
        }
    }
}

extension InvalidNameError {
    /// Seen as a D-Bus error when a received message carries something invalid.
    var asDBusError: DBusError { .invalidArgs(description) }
}
