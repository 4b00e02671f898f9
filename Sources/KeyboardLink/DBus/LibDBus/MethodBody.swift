internal import CDBus

/// How the object server answers one declared method. Every method has one (each of ``DBusMethod``'s initialisers
/// makes it), and every call reaches its handler through it: the server routes the call from its header fields as
/// libdbus holds them (``MethodRoutes``), compares its signature with ``inputSignature``, runs ``prepare`` on the
/// received libdbus message and sends what it produced (``BusConnection/dispatchCall(_:)``).
///
/// A method declared with Swift types reads its arguments straight from the libdbus message and its result is appended
/// straight to the reply: such a call builds no ``Message``, no argument array and no result array. A method declared
/// with a ``MethodInvocation`` handler decodes a ``Message`` from the libdbus message and is given that.
final class MethodBody: Sendable {
    // A class: the server hands it from the route table to the reply for every call, and a reference is one retain
    // where a struct's fields would be several.

    /// What running the handler produced, or what will.
    enum Work: Sendable {
        /// A synchronous handler ran.
        case answered(MethodResult)
        /// An asynchronous handler, ready to run with the arguments it was given.
        case later(@Sendable () async throws -> MethodResult)
    }

    /// The method's name, for the error that says a handler produced the wrong types.
    let name: MemberName
    /// The arguments' signature in libdbus's spelling, NUL-terminated: compared with the call's before `prepare`
    /// runs, so the reads below cannot meet another type.
    let inputSignature: [CChar]
    /// The declared result types. A result of other types is answered with an internal error.
    let outputTypes: [DBusType]
    /// Whether `prepare` reads the arguments straight from the libdbus message (a method declared with Swift types).
    let readsArgumentsInPlace: Bool
    /// Whether `prepare` always returns ``Work/later(_:)``: the handler may suspend and runs in a task, so work can be
    /// put before it (``DBusMethod/guarded(by:)``).
    let isAsynchronous: Bool
    /// Reads the arguments from the call (borrowed, valid during the call) and runs or prepares the handler; runs on
    /// the receiving connection's loop.
    let prepare: @Sendable (_ call: OpaquePointer, _ connection: BusConnection) throws -> Work

    init(
        name: MemberName, inputs: [DBusType], outputs: [DBusType], readsArgumentsInPlace: Bool,
        isAsynchronous: Bool,
        prepare: @escaping @Sendable (_ call: OpaquePointer, _ connection: BusConnection) throws -> Work
    ) {
        self.name = name
        self.inputSignature = Array(Signature(inputs).rawValue.utf8CString)
        self.outputTypes = outputs
        self.readsArgumentsInPlace = readsArgumentsInPlace
        self.isAsynchronous = isAsynchronous
        self.maximumBodySize = nil
        self.prepare = prepare
    }

    /// The largest body, in bytes, a call of this method may carry, when it differs from the connection's
    /// ``CallLimits/maximumBodySize``.
    let maximumBodySize: Int?

    /// This body with `check` run first in the call's task: when it throws, the call is answered with its error and
    /// the handler never runs; otherwise the arguments are read, the handler runs and then what `check` returned, told
    /// how the handler ended. Nothing of the arguments is decoded before the check has let the caller through.
    /// - Precondition: the body is asynchronous (a synchronous handler runs before any task could check).
    func guarded(by check: @escaping MethodGuard) -> MethodBody {
        precondition(isAsynchronous, "\(name) answers synchronously, so nothing can run before its handler")
        return MethodBody(
            name: name, outputs: outputTypes, inputSignature: inputSignature,
            readsArgumentsInPlace: readsArgumentsInPlace, isAsynchronous: true, maximumBodySize: maximumBodySize
        ) { [prepare] call, connection in
            var prepared = MethodCallContext(call, on: connection)
            prepared.leadingText = MessageCodec.leadingString(of: call, limit: MethodCallContext.leadingTextLimit)
            let context = prepared
            let held = HeldMessage(call)
            return .later {
                let ended = try await check(context)
                do {
                    // Read on the connection's loop, as every libdbus call on it.
                    let work = try await connection.onLoop { try prepare(held.message, connection) }
                    guard case .later(let operation) = work else {
                        preconditionFailure("an asynchronous method body answered at once")
                    }
                    let result = try await operation()
                    ended(nil)
                    return result
                } catch {
                    ended(error)
                    throw error
                }
            }
        }
    }

    /// This body accepting calls whose body is at most `limit` bytes, whatever the connection's limit.
    func accepting(bodiesUpTo limit: Int?) -> MethodBody {
        MethodBody(
            name: name, outputs: outputTypes, inputSignature: inputSignature,
            readsArgumentsInPlace: readsArgumentsInPlace, isAsynchronous: isAsynchronous, maximumBodySize: limit,
            prepare: prepare)
    }

    private init(
        name: MemberName, outputs: [DBusType], inputSignature: [CChar], readsArgumentsInPlace: Bool,
        isAsynchronous: Bool, maximumBodySize: Int?,
        prepare: @escaping @Sendable (_ call: OpaquePointer, _ connection: BusConnection) throws -> Work
    ) {
        self.name = name
        self.inputSignature = inputSignature
        self.outputTypes = outputs
        self.readsArgumentsInPlace = readsArgumentsInPlace
        self.isAsynchronous = isAsynchronous
        self.maximumBodySize = maximumBodySize
        self.prepare = prepare
    }

    // MARK: Methods declared with a MethodInvocation handler

    /// A handler given the whole call as a ``Message``.
    static func invocation(name: MemberName, inputs: [DBusType], outputs: [DBusType], handler: DBusMethod.Handler)
        -> MethodBody
    {
        switch handler {
        case .synchronous(let handler):
            MethodBody(
                name: name, inputs: inputs, outputs: outputs, readsArgumentsInPlace: false, isAsynchronous: false
            ) { call, connection in
                .answered(.values(try handler(try invocation(call, connection))))
            }
        case .asynchronous(let handler):
            MethodBody(
                name: name, inputs: inputs, outputs: outputs, readsArgumentsInPlace: false, isAsynchronous: true
            ) { call, connection in
                let invocation = try invocation(call, connection)
                return .later { .values(try await handler(invocation)) }
            }
        }
    }

    /// The call as a ``MethodInvocation``: its ``Message`` decoded from the libdbus message.
    private static func invocation(_ call: OpaquePointer, _ connection: BusConnection) throws -> MethodInvocation {
        let message: Message
        do {
            message = try MessageCodec.decode(
                call, strings: connection.headerStrings, valueBudget: connection.callLimits.valuesPerMessage)
        } catch {
            throw DBusError.invalidArgs("the message body could not be read")
        }
        return MethodInvocation(message: message, connection: connection)
    }

    // MARK: Methods declared with Swift types

    /// A synchronous handler; `encode` turns its result into the reply's.
    static func synchronous<each Argument: DBusRepresentable, Result>(
        name: MemberName, _ handler: @escaping @Sendable (repeat each Argument) throws -> Result,
        outputs: [DBusType], encode: @escaping @Sendable (Result) -> MethodResult
    ) -> MethodBody {
        MethodBody(
            name: name, inputs: dbusTypes(of: repeat (each Argument).self), outputs: outputs,
            readsArgumentsInPlace: true, isAsynchronous: false
        ) { call, _ in
            // The arguments go straight into the call, read in order: no tuple of them, whose type the runtime would
            // look up on every call.
            var reader = ArgumentReader(call)
            defer { reader.closeDescriptors() }
            return .answered(encode(try handler(repeat try reader.next((each Argument).self))))
        }
    }

    /// A synchronous handler that is also given the call's context.
    static func synchronous<each Argument: DBusRepresentable, Result>(
        name: MemberName, _ handler: @escaping @Sendable (MethodCallContext, repeat each Argument) throws -> Result,
        outputs: [DBusType], encode: @escaping @Sendable (Result) -> MethodResult
    ) -> MethodBody {
        MethodBody(
            name: name, inputs: dbusTypes(of: repeat (each Argument).self), outputs: outputs,
            readsArgumentsInPlace: true, isAsynchronous: false
        ) { call, connection in
            var reader = ArgumentReader(call)
            defer { reader.closeDescriptors() }
            return .answered(
                encode(
                    try handler(MethodCallContext(call, on: connection), repeat try reader.next((each Argument).self))))
        }
    }

    /// An asynchronous handler; `encode` turns its result into the reply's.
    static func asynchronous<each Argument: DBusRepresentable, Result>(
        name: MemberName, _ handler: @escaping @Sendable (repeat each Argument) async throws -> Result,
        outputs: [DBusType], encode: @escaping @Sendable (Result) -> MethodResult
    ) -> MethodBody {
        MethodBody(
            name: name, inputs: dbusTypes(of: repeat (each Argument).self), outputs: outputs,
            readsArgumentsInPlace: true, isAsynchronous: true
        ) { call, _ in
            let (arguments, descriptors): ((repeat each Argument), ReceivedDescriptors?) = try readArguments(call)
            return .later {
                defer { descriptors?.closeAll() }
                return encode(try await handler(repeat each arguments))
            }
        }
    }

    /// An asynchronous handler that is also given the call's context.
    static func asynchronous<each Argument: DBusRepresentable, Result>(
        name: MemberName,
        _ handler: @escaping @Sendable (MethodCallContext, repeat each Argument) async throws -> Result,
        outputs: [DBusType], encode: @escaping @Sendable (Result) -> MethodResult
    ) -> MethodBody {
        MethodBody(
            name: name, inputs: dbusTypes(of: repeat (each Argument).self), outputs: outputs,
            readsArgumentsInPlace: true, isAsynchronous: true
        ) { call, connection in
            let context = MethodCallContext(call, on: connection)
            let (arguments, descriptors): ((repeat each Argument), ReceivedDescriptors?) = try readArguments(call)
            return .later {
                defer { descriptors?.closeAll() }
                return encode(try await handler(context, repeat each arguments))
            }
        }
    }

    // MARK: Replies the server keeps encoded

    /// A method without arguments whose handler returns a reply already encoded (``ReplyTemplate``), which the server
    /// copies for each call: `GetManagedObjects` of a thousand objects.
    static func encoded(
        name: MemberName, outputs: [DBusType],
        _ handler: @escaping @Sendable (MethodCallContext) throws -> ReplyTemplate
    ) -> MethodBody {
        MethodBody(
            name: name, inputs: [], outputs: outputs, readsArgumentsInPlace: false, isAsynchronous: false
        ) { call, connection in
            .answered(.encoded(try handler(MethodCallContext(call, on: connection))))
        }
    }
}

/// What a handler answered: the values of the reply's body, checked against the declared result types before they
/// are sent.
enum MethodResult: Sendable {
    /// No value (a method without results).
    case none
    /// One value (a method declared with Swift types and a result).
    case one(DBusValue)
    /// Any number of values (a ``MethodInvocation`` handler).
    case values([DBusValue])
    /// A whole reply, encoded and kept by the server, whose body is copied.
    case encoded(ReplyTemplate)
}

extension MethodCallContext {
    /// The context of a call libdbus holds, read on `connection`'s loop (its header names come from the connection's
    /// cache of the last ones seen).
    init(_ call: OpaquePointer, on connection: BusConnection) {
        // A method call always has a path: libdbus refuses one without.
        self.init(
            path: dbus_message_get_path(call).map { connection.headerStrings.path($0) } ?? .root,
            sender: dbus_message_get_sender(call).map { connection.headerStrings.sender($0) },
            connection: connection,
            allowsInteractiveAuthorization: dbus_message_get_allow_interactive_authorization(call) != 0)
    }
}

/// A received libdbus message kept alive while a call's task waits (a reference libdbus counts atomically).
final class HeldMessage: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `message` never changes; libdbus's reference count is atomic, so taking and
    // dropping the reference from any thread is safe, and the message itself is only read through ``MethodBody``'s
    // `prepare`, which runs on the connection's loop (``BusConnection/onLoop(_:)``).
    let message: OpaquePointer

    init(_ message: OpaquePointer) {
        self.message = message
        dbus_message_ref(message)
    }

    deinit { dbus_message_unref(message) }
}

/// The D-Bus types of a list of Swift types, in order.
func dbusTypes<each Argument: DBusRepresentable>(of types: repeat (each Argument).Type) -> [DBusType] {
    var result: [DBusType] = []
    for type in repeat each types {
        result.append(type.dbusType)
    }
    return result
}

/// Reads every argument of a call, as the given types, in order, with the file descriptors among them (nil when the
/// call carries none), which the caller closes once the handler is done with them.
private func readArguments<each Argument: DBusRepresentable>(
    _ call: OpaquePointer
) throws -> ((repeat each Argument), ReceivedDescriptors?) {
    var reader = ArgumentReader(call)
    let arguments = (repeat try reader.next((each Argument).self))
    return (arguments, reader.descriptors)
}

/// Reads a call's arguments one by one with libdbus's iterator.
///
/// File descriptors read (``UnixFileDescriptor``, or inside other arguments) are `dup()`s libdbus hands out: the
/// reader keeps them in ``descriptors`` and its user closes them when the handler has returned.
private struct ArgumentReader {
    private var iterator = DBusMessageIter()
    /// The descriptors read so far; nil when the call carries none (no allocation for the usual call).
    let descriptors: ReceivedDescriptors?

    init(_ call: OpaquePointer) {
        _ = dbus_message_iter_init(call, &iterator)
        descriptors = dbus_message_contains_unix_fds(call) != 0 ? ReceivedDescriptors() : nil
    }

    /// Closes the descriptors read so far (the handler has returned).
    func closeDescriptors() {
        descriptors?.closeAll()
    }

    /// The next argument as `T`. The iterator checks the type code again, so a body that disagrees with the signature
    /// the caller checked throws instead of being misread.
    mutating func next<T: DBusRepresentable>(_ type: T.Type) throws -> T {
        // No `as? T`: its `Optional<T>` would have the runtime look up a type for every argument of every call.
        if T.self == [UInt8].self, let bytes = byteArray() {
            _ = dbus_message_iter_next(&iterator)
            return bytes as! T  // T is [UInt8], checked above: the cast cannot fail.
        }
        let value = try MessageCodec.read(T.dbusType, from: &iterator, keepingDescriptorsIn: descriptors)
        _ = dbus_message_iter_next(&iterator)
        return try T(dbusValue: value)
    }

    /// An `ay` at the iterator's position in one copy (`dbus_message_iter_get_fixed_array`), where reading it value by
    /// value would cost a few hundred instructions per byte; nil when the next argument is something else.
    private mutating func byteArray() -> [UInt8]? {
        guard dbus_message_iter_get_arg_type(&iterator) == MessageCodec.typeArray,
            dbus_message_iter_get_element_type(&iterator) == MessageCodec.typeByte
        else { return nil }
        var elements = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &elements)
        var start: UnsafeRawPointer?
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &start) { dbus_message_iter_get_fixed_array(&elements, $0, &count) }
        guard let start, count > 0 else { return [] }
        return [UInt8](UnsafeRawBufferPointer(start: start, count: Int(count)))
    }
}
