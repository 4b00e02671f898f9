/// The objects a connection exports, confined to the connection's queue.
///
/// Answers `Introspectable`, `Properties` and `ObjectManager` from the declarations, routes other calls
/// to their handlers (synchronous ones inline, asynchronous ones in tasks, so that they may reply later), and answers
/// everything unknown or mistyped with the standard `org.freedesktop.DBus.Error.*` names. Calls to typed methods
/// (``DBusMethod``'s typed initialisers) are routed before a ``Message`` is built, from ``typedBody(for:)``.
final class ObjectServer {
    struct ExportedInterface {
        var declaration: DBusInterface
        var values: [MemberName: DBusValue]
    }

    struct ExportedObject {
        /// In export order, so that introspection is stable.
        var interfaces: [ExportedInterface] = []

        func interface(_ name: InterfaceName) -> ExportedInterface? {
            interfaces.first { $0.declaration.name == name }
        }

        /// The method `member` of `interface`, or of the first interface that has one when the call names none.
        func method(_ member: MemberName, of interface: InterfaceName?) -> DBusMethod? {
            for exported in interfaces where interface == nil || exported.declaration.name == interface {
                if let method = exported.declaration.method(named: member) { return method }
            }
            return nil
        }
    }

    unowned let connection: BusConnection
    var objects: [ObjectPath: ExportedObject] = [:]
    var managers: Set<ObjectPath> = []
    /// The typed methods' routes, built when a call first needs them after an export or unexport (property values do
    /// not change them).
    private var typedRoutesStorage: TypedMethodRoutes?

    /// The typed method a received call is for, when the fast route finds one (see ``TypedMethodBody``).
    func typedBody(for call: OpaquePointer) -> TypedMethodBody? {
        if typedRoutesStorage == nil { typedRoutesStorage = TypedMethodRoutes(objects: objects) }
        return typedRoutesStorage?.body(for: call)
    }

    init(connection: BusConnection) {
        self.connection = connection
    }

    func removeAll() {
        objects.removeAll()
        typedRoutesStorage = nil
        managers.removeAll()
        connection.invalidateReplyTemplates()
    }

    // MARK: Registration

    func export(_ declaration: DBusInterface, at path: ObjectPath) throws {
        var object = objects[path] ?? ExportedObject()
        guard object.interface(declaration.name) == nil else {
            throw DBusError.failed("\(declaration.name) is already exported at \(path)")
        }
        let standard: Set<InterfaceName> = [.properties, .introspectable, .peer, .objectManager]
        guard !standard.contains(declaration.name) else {
            throw DBusError.failed("\(declaration.name) is provided by the object server itself")
        }
        var values: [MemberName: DBusValue] = [:]
        for property in declaration.properties { values[property.name] = property.initialValue }
        object.interfaces.append(ExportedInterface(declaration: declaration, values: values))
        objects[path] = object
        typedRoutesStorage = nil
        connection.invalidateReplyTemplates()
        if let manager = manager(above: path) {
            let properties = DBusValue.dictionary(
                key: .string, value: .variant, propertyEntries(values, of: declaration, includeAll: false))
            let added = DBusValue.dictionary(
                key: .string, value: .dictionary(key: .string, value: .variant),
                [DBusDictionaryEntry(key: .string(declaration.name.rawValue), value: properties)])
            emit(
                path: manager, interface: .objectManager, member: "InterfacesAdded",
                [.objectPath(path), added])
        }
    }

    func unexport(_ interface: InterfaceName?, at path: ObjectPath) {
        guard var object = objects[path] else { return }
        let removed: [InterfaceName]
        if let interface {
            removed = object.interfaces.filter { $0.declaration.name == interface }.map(\.declaration.name)
            object.interfaces.removeAll { $0.declaration.name == interface }
        } else {
            removed = object.interfaces.map(\.declaration.name)
            object.interfaces.removeAll()
        }
        objects[path] = object.interfaces.isEmpty ? nil : object
        typedRoutesStorage = nil
        connection.invalidateReplyTemplates()
        if !removed.isEmpty, let manager = manager(above: path) {
            emit(
                path: manager, interface: .objectManager, member: "InterfacesRemoved",
                [.objectPath(path), .array(.string, removed.map { .string($0.rawValue) })])
        }
    }

    /// The nearest ObjectManager strictly above `path`.
    func manager(above path: ObjectPath) -> ObjectPath? {
        var current = path.parent
        while let candidate = current {
            if managers.contains(candidate) { return candidate }
            current = candidate.parent
        }
        return nil
    }

    /// Stores a property value and emits `PropertiesChanged` as the declaration says.
    func setProperty(_ name: MemberName, of interface: InterfaceName, at path: ObjectPath, to value: DBusValue)
        throws
    {
        try setProperties([(name, value)], of: interface, at: path)
    }

    /// Stores several property values of one interface at once: a reader never sees some updated and others not,
    /// and one `PropertiesChanged` carries every change. Nothing is stored when one name or value is wrong.
    /// - Parameter announce: false stores the values without `PropertiesChanged` (a simulator playing a peer that
    ///   forgets to announce a change).
    func setProperties(
        _ values: [(MemberName, DBusValue)], of interface: InterfaceName, at path: ObjectPath, announce: Bool = true
    ) throws {
        guard var object = objects[path],
            let index = object.interfaces.firstIndex(where: { $0.declaration.name == interface })
        else {
            throw DBusError.unknownProperty("no interface \(interface) at \(path)")
        }
        var changed: [DBusDictionaryEntry] = []
        var invalidated: [String] = []
        var updated = object.interfaces[index].values
        for (name, value) in values {
            guard let declaration = object.interfaces[index].declaration.property(named: name) else {
                throw DBusError.unknownProperty("no property \(name) on \(interface) at \(path)")
            }
            guard value.conforms(to: declaration.type) else {
                throw DBusError.invalidArgs("\(name) has type '\(declaration.type)', not '\(value.type)'")
            }
            guard updated[name] != value else { continue }
            updated[name] = value
            switch declaration.changeBehavior {
            case .emits:
                changed.append(DBusDictionaryEntry(key: .string(name.rawValue), value: .variant(value)))
            case .invalidates:
                invalidated.append(name.rawValue)
            case .const, .none:
                break
            }
        }
        guard updated != object.interfaces[index].values else { return }
        object.interfaces[index].values = updated
        objects[path] = object
        connection.invalidateReplyTemplates()
        if announce, !changed.isEmpty || !invalidated.isEmpty {
            emitPropertiesChanged(path, interface, changed: changed, invalidated: invalidated)
        }
    }

    func property(_ name: MemberName, of interface: InterfaceName, at path: ObjectPath) -> DBusValue? {
        objects[path]?.interface(interface)?.values[name]
    }

    private func emitPropertiesChanged(
        _ path: ObjectPath, _ interface: InterfaceName, changed: [DBusDictionaryEntry], invalidated: [String]
    ) {
        emit(
            path: path, interface: .properties, member: "PropertiesChanged",
            [
                .string(interface.rawValue), .dictionary(key: .string, value: .variant, changed),
                .array(.string, invalidated.map { .string($0) }),
            ])
    }

    /// Emits a signal the server built itself from stored, already checked values.
    func emit(path: ObjectPath, interface: InterfaceName, member: String, _ body: [DBusValue]) {
        _ = connection.sendNow(
            .signal(path: path, interface: interface, member: MemberName(trusted: member), body: body), checked: false)
    }

    private func propertyEntries(
        _ values: [MemberName: DBusValue], of declaration: DBusInterface, includeAll: Bool
    ) -> [DBusDictionaryEntry] {
        declaration.properties.compactMap { property in
            guard property.access != .write, let value = values[property.name] else { return nil }
            return DBusDictionaryEntry(key: .string(property.name.rawValue), value: .variant(value))
        }
    }

    // MARK: Dispatch

    func dispatch(_ call: Message) {
        guard let path = call.path, let member = call.member else { return }
        switch call.interface {
        case .introspectable?:
            return answerIntrospectable(call, path: path, member: member)
        case .properties?:
            return answerProperties(call, path: path, member: member)
        case .objectManager? where managers.contains(path):
            return answerObjectManager(call, member: member)
        default:
            break
        }
        if call.interface == nil {
            // An interface-less call: standard members first, then the declared ones.
            if member.rawValue == "Introspect" { return answerIntrospectable(call, path: path, member: member) }
            if ["Get", "GetAll", "Set"].contains(member.rawValue) {
                return answerProperties(call, path: path, member: member)
            }
            if member.rawValue == "GetManagedObjects", managers.contains(path) {
                return answerObjectManager(call, member: member)
            }
        }
        guard let object = objects[path] else {
            if managers.contains(path), let interface = call.interface {
                return reply(call, error: .unknownInterface("no interface \(interface) at \(path)"))
            }
            return reply(call, error: .unknownObject("no object at \(path)"))
        }
        if let interface = call.interface, !object.interfaces.contains(where: { $0.declaration.name == interface }) {
            return reply(call, error: .unknownInterface("no interface \(interface) at \(path)"))
        }
        guard let method = object.method(member, of: call.interface) else {
            return reply(
                call,
                error: .unknownMethod(
                    "no method \(member) on \(call.interface?.rawValue ?? "any interface") at \(path)"))
        }
        // The received signature, compared without decoding the body: the handler decodes it, typed.
        guard call.bodyTypes == method.inputSignature.types else {
            return reply(
                call,
                error: .invalidArgs(
                    "\(member) takes arguments '\(method.inputSignature.rawValue)', got '\(call.signature.rawValue)'"))
        }
        let connection = self.connection
        let invocation = MethodInvocation(message: call, connection: connection)
        if method.handler.isSynchronous {
            Self.respondAtOnce(to: call, of: method, with: invocation)
        } else {
            // The handler starts at once, on this (the connection's) thread, inside the dispatch of its message: a
            // handler that never suspends runs and replies without a job, a thread switch or a later loop round. One
            // that suspends resumes on the connection's executor, as it would have started there anyway.
            Task.immediate(executorPreference: connection.loop) {
                await ObjectServer.respond(to: call, of: method, with: invocation)
            }
        }
    }

    /// Runs a synchronous handler and sends its reply (none when the caller wants none).
    private static func respondAtOnce(to call: Message, of method: DBusMethod, with invocation: MethodInvocation) {
        guard case .synchronous(let handler) = method.handler else { return }
        let result = Result { try handler(invocation) }
        if let answer = answer(call, of: method, result) { send(answer, to: call, on: invocation.connection) }
    }

    /// Sends a handler's answer; when libdbus would refuse it (a string holding NUL), the caller gets that error
    /// instead of waiting for its timeout.
    private static func send(_ answer: Message, to call: Message, on connection: BusConnection) {
        if case .failure(let error) = connection.sendNow(answer), answer.kind == .methodReturn {
            _ = connection.sendNow(.error(to: call, error))
        }
    }

    /// Runs an asynchronous handler and sends its reply (none when the caller wants none).
    private static func respond(
        to call: Message, of method: DBusMethod, with invocation: MethodInvocation
    ) async {
        guard case .asynchronous(let handler) = method.handler else { return }
        let result: Result<[DBusValue], any Error>
        do {
            result = .success(try await handler(invocation))
        } catch {
            result = .failure(error)
        }
        guard let answer = answer(call, of: method, result) else { return }
        // No await: the reply is queued for the connection's queue and this task ends.
        let connection = invocation.connection
        if connection.loop.isCurrent {
            send(answer, to: call, on: connection)
        } else {
            connection.loop.async { send(answer, to: call, on: connection) }
        }
    }

    /// The reply to `call` from what its handler produced or threw; nil when the caller wants no reply. Outputs of the
    /// wrong types become an internal-error reply naming both signatures.
    private static func answer(_ call: Message, of method: DBusMethod, _ result: Result<[DBusValue], any Error>)
        -> Message?
    {
        guard !call.noReplyExpected else { return nil }
        do {
            let values = try result.get()
            // Compared type by type: no signature text is built for a call that succeeds.
            let expected = method.outputSignature.types
            if values.count == expected.count && zip(values, expected).allSatisfy({ $0.0.type == $0.1 }) {
                return .methodReturn(to: call, body: values)
            }
            let produced = Signature(values.map(\.type))
            return .error(
                to: call,
                .failed(
                    "internal error: \(method.name) produced '\(produced.rawValue)' instead of '\(method.outputSignature.rawValue)'"
                ))
        } catch let error as DBusError {
            return .error(to: call, error)
        } catch {
            return .error(to: call, .failed("\(error)"))
        }
    }

    func reply(_ call: Message, error: DBusError) {
        guard !call.noReplyExpected else { return }
        _ = connection.sendNow(.error(to: call, error))
    }

    /// Replies with a body the server built itself (introspection, properties, managed objects).
    func reply(_ call: Message, _ body: [DBusValue]) {
        guard !call.noReplyExpected else { return }
        _ = connection.sendNow(.methodReturn(to: call, body: body), checked: false)
    }

    private func answerIntrospectable(_ call: Message, path: ObjectPath, member: MemberName) {
        guard member.rawValue == "Introspect" else {
            return reply(call, error: .unknownMethod("no method \(member) on \(InterfaceName.introspectable)"))
        }
        guard call.bodyIsEmpty else { return reply(call, error: .invalidArgs("Introspect takes no arguments")) }
        let children = childNames(of: path)
        guard objects[path] != nil || managers.contains(path) || !children.isEmpty || path == .root else {
            return reply(call, error: .unknownObject("no object at \(path)"))
        }
        reply(call, [.string(introspectionXML(for: path))])
    }

    private func answerProperties(_ call: Message, path: ObjectPath, member: MemberName) {
        guard let object = objects[path] else {
            return reply(call, error: .unknownObject("no object at \(path)"))
        }
        func lookUp(_ interfaceText: String) -> ExportedInterface? {
            guard let name = InterfaceName(validating: interfaceText) else { return nil }
            return object.interface(name)
        }
        switch member.rawValue {
        case "Get":
            // The signature alone does not prove the body decoded: index only what is there.
            let body = call.body
            guard call.signature.rawValue == "ss", body.count == 2, let interfaceText = body[0].stringValue,
                let nameText = body[1].stringValue
            else { return reply(call, error: .invalidArgs("Get takes arguments 'ss'")) }
            guard let exported = lookUp(interfaceText) else {
                return reply(call, error: .unknownInterface("no interface \(interfaceText) at \(path)"))
            }
            guard let name = MemberName(validating: nameText),
                let property = exported.declaration.property(named: name),
                let value = exported.values[name]
            else { return reply(call, error: .unknownProperty("no property \(nameText) on \(interfaceText)")) }
            guard property.access != .write else {
                return reply(call, error: .accessDeniedError("\(nameText) is write-only"))
            }
            reply(call, [.variant(value)])
        case "GetAll":
            let body = call.body
            guard call.signature.rawValue == "s", body.count == 1, let interfaceText = body[0].stringValue else {
                return reply(call, error: .invalidArgs("GetAll takes arguments 's'"))
            }
            guard let exported = lookUp(interfaceText) else {
                // The specification allows an empty answer; being precise helps callers more.
                return reply(call, error: .unknownInterface("no interface \(interfaceText) at \(path)"))
            }
            reply(
                call,
                [
                    .dictionary(
                        key: .string, value: .variant,
                        propertyEntries(exported.values, of: exported.declaration, includeAll: true))
                ])
        case "Set":
            let body = call.body
            guard call.signature.rawValue == "ssv", body.count == 3, let interfaceText = body[0].stringValue,
                let nameText = body[1].stringValue, case .variant(let value) = body[2]
            else { return reply(call, error: .invalidArgs("Set takes arguments 'ssv'")) }
            guard let exported = lookUp(interfaceText) else {
                return reply(call, error: .unknownInterface("no interface \(interfaceText) at \(path)"))
            }
            guard let name = MemberName(validating: nameText), let property = exported.declaration.property(named: name)
            else { return reply(call, error: .unknownProperty("no property \(nameText) on \(interfaceText)")) }
            guard property.access != .read, let setter = property.setter else {
                return reply(call, error: .propertyReadOnly("\(nameText) is read-only"))
            }
            guard value.conforms(to: property.type) else {
                return reply(
                    call, error: .invalidArgs("\(nameText) has type '\(property.type)', not '\(value.type)'"))
            }
            let connection = self.connection
            let interface = exported.declaration.name
            let invocation = MethodInvocation(message: call, connection: connection)
            Task {
                do {
                    let accepted = try await setter(value, invocation)
                    try await connection.setProperty(name, of: interface, at: path, to: accepted)
                    if !call.noReplyExpected { try? await connection.send(.methodReturn(to: call)) }
                } catch let error as DBusError {
                    if !call.noReplyExpected { try? await connection.send(.error(to: call, error)) }
                } catch {
                    if !call.noReplyExpected { try? await connection.send(.error(to: call, .failed("\(error)"))) }
                }
            }
        default:
            reply(call, error: .unknownMethod("no method \(member) on \(InterfaceName.properties)"))
        }
    }

    private func answerObjectManager(_ call: Message, member: MemberName) {
        guard member.rawValue == "GetManagedObjects", let path = call.path else {
            return reply(call, error: .unknownMethod("no method \(member) on \(InterfaceName.objectManager)"))
        }
        guard call.bodyIsEmpty else { return reply(call, error: .invalidArgs("GetManagedObjects takes no arguments")) }
        connection.replyFromTemplate(call, key: path) { [managedObjects(below: path)] }
    }

    func managedObjects(below manager: ObjectPath) -> DBusValue {
        let interfacesType = DBusType.dictionary(key: .string, value: .dictionary(key: .string, value: .variant))
        var entries: [DBusDictionaryEntry] = []
        for (path, object) in objects where path != manager && path.isDescendant(of: manager) {
            let interfaces = object.interfaces.map { exported in
                DBusDictionaryEntry(
                    key: .string(exported.declaration.name.rawValue),
                    value: .dictionary(
                        key: .string, value: .variant,
                        propertyEntries(exported.values, of: exported.declaration, includeAll: true)))
            }
            entries.append(
                DBusDictionaryEntry(
                    key: .objectPath(path),
                    value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), interfaces)))
        }
        entries.sort { lhs, rhs in
            guard case .objectPath(let left) = lhs.key, case .objectPath(let right) = rhs.key else { return false }
            return left.rawValue < right.rawValue
        }
        return .dictionary(key: .objectPath, value: interfacesType, entries)
    }

    /// Names of the direct children of `path` among exported objects and managers.
    func childNames(of path: ObjectPath) -> [String] {
        var names = Set<String>()
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        for candidate in objects.keys.map(\.rawValue) + managers.map(\.rawValue) where candidate.hasPrefix(prefix) {
            let rest = candidate.dropFirst(prefix.count)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    func introspectionXML(for path: ObjectPath) -> String {
        var interfaces: [DBusInterface] = StandardInterfaces.always
        if managers.contains(path) { interfaces.append(StandardInterfaces.objectManager) }
        interfaces += objects[path]?.interfaces.map(\.declaration) ?? []
        return IntrospectionXML.document(interfaces: interfaces, children: childNames(of: path))
    }
}

extension DBusError {
    static func accessDeniedError(_ message: String) -> DBusError { .init(.accessDenied, message) }
}
