/// The objects a connection exports, confined to the connection's loop thread.
///
/// Routes every method call, from the libdbus message, to the method that answers it (``route(_:)``, ``MethodRoutes``):
/// the exported interfaces' and the standard ones (``StandardInterfaces``), whose handlers read the state kept here
/// (introspection, property values, managed objects). Everything unknown or mistyped is answered with the standard
/// `org.freedesktop.DBus.Error.*` names before a handler runs.
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
    }

    unowned let connection: BusConnection
    var objects: [ObjectPath: ExportedObject] = [:]
    /// Object managers, by path. Changing them rebuilds the routes.
    var managers: Set<ObjectPath> = [] {
        didSet { routesStorage = nil }
    }
    /// The routes, built when a call first needs them after an export, an unexport or a new manager (property values
    /// do not change them).
    private var routesStorage: MethodRoutes?

    /// Where a received method call goes; nil for one libdbus would not deliver (no path or member).
    func route(_ call: OpaquePointer) -> MethodRoutes.Route? {
        if let routes = routesStorage { return routes.route(call) }
        let routes = MethodRoutes(objects: objects, managers: managers)
        routesStorage = routes
        return routes.route(call)
    }

    init(connection: BusConnection) {
        self.connection = connection
    }

    func removeAll() {
        objects.removeAll()
        routesStorage = nil
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
        routesStorage = nil
        connection.invalidateReplyTemplates()
        if let manager = manager(above: path) {
            let properties = DBusValue.dictionary(
                key: .string, value: .variant, propertyEntries(values, of: declaration))
            let added = DBusValue.dictionary(
                key: .string, value: .dictionary(key: .string, value: .variant),
                [DBusDictionaryEntry(key: .string(declaration.name.rawValue), value: properties)])
            emit(path: manager, interface: .objectManager, member: "InterfacesAdded", [.objectPath(path), added])
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
        routesStorage = nil
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
    func emit(path: ObjectPath, interface: InterfaceName, member: MemberName, _ body: [DBusValue]) {
        _ = connection.sendNow(.signal(path: path, interface: interface, member: member, body: body), checked: false)
    }

    /// The readable properties' values, in declaration order (what `GetAll`, `GetManagedObjects` and
    /// `InterfacesAdded` carry).
    private func propertyEntries(_ values: [MemberName: DBusValue], of declaration: DBusInterface)
        -> [DBusDictionaryEntry]
    {
        declaration.properties.compactMap { property in
            guard property.access != .write, let value = values[property.name] else { return nil }
            return DBusDictionaryEntry(key: .string(property.name.rawValue), value: .variant(value))
        }
    }

    // MARK: The standard interfaces' handlers (StandardInterfaces)

    /// `Introspect`: the XML of `path`, which must be an object, an object manager, the parent of one, or `/`.
    func introspect(at path: ObjectPath) throws(DBusError) -> String {
        guard objects[path] != nil || managers.contains(path) || path == .root || !childNames(of: path).isEmpty else {
            throw .unknownObject("no object at \(path)")
        }
        return introspectionXML(for: path)
    }

    /// The exported interface named `interfaceText` at `path`.
    private func exported(_ interfaceText: String, at path: ObjectPath) throws(DBusError) -> ExportedInterface {
        guard let object = objects[path] else { throw .unknownObject("no object at \(path)") }
        guard let name = InterfaceName(validating: interfaceText), let exported = object.interface(name) else {
            // GetAll could answer an empty dictionary (the specification allows it); being precise helps callers more.
            throw .unknownInterface("no interface \(interfaceText) at \(path)")
        }
        return exported
    }

    /// `Get`: one readable property's value.
    func value(of nameText: String, of interfaceText: String, at path: ObjectPath) throws(DBusError) -> DBusValue {
        let exported = try exported(interfaceText, at: path)
        guard let name = MemberName(validating: nameText), let property = exported.declaration.property(named: name),
            let value = exported.values[name]
        else { throw .unknownProperty("no property \(nameText) on \(interfaceText)") }
        guard property.access != .write else { throw .accessDeniedError("\(nameText) is write-only") }
        return value
    }

    /// `GetAll`: the readable properties' values.
    func values(of interfaceText: String, at path: ObjectPath) throws(DBusError)
        -> StandardInterfaces.PropertyValues
    {
        let exported = try exported(interfaceText, at: path)
        return StandardInterfaces.PropertyValues(propertyEntries(exported.values, of: exported.declaration))
    }

    /// What `Set` needs once the call is checked: the property's interface and name and its setter.
    private func writable(_ nameText: String, of interfaceText: String, at path: ObjectPath, valueType: DBusType)
        throws(DBusError) -> (
            InterfaceName, MemberName, @Sendable (DBusValue, MethodInvocation) async throws -> DBusValue
        )
    {
        let exported = try exported(interfaceText, at: path)
        guard let name = MemberName(validating: nameText), let property = exported.declaration.property(named: name)
        else { throw .unknownProperty("no property \(nameText) on \(interfaceText)") }
        guard property.access != .read, let setter = property.setter else {
            throw .propertyReadOnly("\(nameText) is read-only")
        }
        guard valueType == property.type else {
            throw .invalidArgs("\(nameText) has type '\(property.type)', not '\(valueType)'")
        }
        return (exported.declaration.name, name, setter)
    }

    /// `Set`: checks the call on the connection's loop (the property exists, is writable, and the variant holds its
    /// type) before the value is decoded, runs the property's setter and stores what it returns (which emits
    /// `PropertiesChanged` as the declaration says) before the call is answered.
    static func set(_ call: MethodInvocation) async throws {
        let assignment = try PropertyAssignment(call.message)
        let (interfaceText, nameText, valueType) = (assignment.interface, assignment.property, assignment.valueType)
        let connection = call.connection
        let path = call.message.path ?? .root
        let checked = await connection.onQueue {
            Result { () throws(DBusError) in
                try connection.objectServer.writable(nameText, of: interfaceText, at: path, valueType: valueType)
            }
        }
        let (interface, name, setter) = try checked.get()
        let accepted = try await setter(try assignment.value(), call)
        try await connection.setProperty(name, of: interface, at: path, to: accepted)
    }

    /// `GetManagedObjects`: the reply for the manager at `path`, encoded once and kept until an object or a property
    /// changes.
    func managedObjectsReply(at path: ObjectPath) throws(DBusError) -> ReplyTemplate {
        guard let template = connection.replyTemplate(key: path, build: { [managedObjects(below: path)] }) else {
            throw .failed("out of memory building a D-Bus message")
        }
        return template
    }

    func managedObjects(below manager: ObjectPath) -> DBusValue {
        var entries: [DBusDictionaryEntry] = []
        for (path, object) in objects where path != manager && path.isDescendant(of: manager) {
            let interfaces = object.interfaces.map { exported in
                DBusDictionaryEntry(
                    key: .string(exported.declaration.name.rawValue),
                    value: .dictionary(
                        key: .string, value: .variant, propertyEntries(exported.values, of: exported.declaration)))
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
        return .dictionary(
            key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
            entries)
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
