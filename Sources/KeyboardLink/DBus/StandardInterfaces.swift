/// The interfaces the object server serves on every path: `org.freedesktop.DBus.Introspectable`, `Properties` and
/// `Peer`, and `ObjectManager` where an object manager is. They are declared as any user interface is, with
/// ``DBusMethod``'s initialisers, and their calls take the same dispatch path; their handlers read the server's state.
///
/// libdbus answers calls that name `org.freedesktop.DBus.Peer` itself, before they reach the server; the `Peer`
/// methods below answer a `Ping` or `GetMachineId` that names no interface.
enum StandardInterfaces {
    static let peer = DBusInterface(
        .peer,
        methods: [
            DBusMethod("Ping", arguments: [], synchronousHandler: {}),
            DBusMethod("GetMachineId", arguments: [], result: "machine_uuid") { () throws -> String in
                try BusConnection.localMachineID()
            },
        ])

    static let introspectable = DBusInterface(
        .introspectable,
        methods: [
            DBusMethod("Introspect", arguments: [], result: "xml_data") { (call: MethodCallContext) throws -> String in
                try call.connection.objectServer.introspect(at: call.path)
            }
        ])

    static let properties = DBusInterface(
        .properties,
        methods: [
            DBusMethod("Get", arguments: ["interface_name", "property_name"], result: "value") {
                (call: MethodCallContext, interface: String, property: String) throws -> DBusValue in
                try call.connection.objectServer.value(of: property, of: interface, at: call.path)
            },
            DBusMethod("GetAll", arguments: ["interface_name"], result: "props") {
                (call: MethodCallContext, interface: String) throws -> PropertyValues in
                try call.connection.objectServer.values(of: interface, at: call.path)
            },
            // Declared with a MethodInvocation handler: a property's setter is given the call.
            DBusMethod(
                "Set",
                inputs: [
                    DBusArgument("interface_name", .string), DBusArgument("property_name", .string),
                    DBusArgument("value", .variant),
                ],
                handler: { call in
                    try await ObjectServer.set(call)
                    return []
                }),
        ],
        signals: [
            DBusSignal(
                "PropertiesChanged",
                arguments: [
                    DBusArgument("interface_name", .string),
                    DBusArgument("changed_properties", .dictionary(key: .string, value: .variant)),
                    DBusArgument("invalidated_properties", .array(.string)),
                ])
        ])

    static let objectManager = DBusInterface(
        .objectManager,
        methods: [
            // The reply is kept encoded until an object or a property changes (ObjectServer.managedObjectsReply).
            DBusMethod(
                "GetManagedObjects",
                outputs: [DBusArgument("object_paths_interfaces_and_properties", managedObjectsType)],
                encodedReply: { call in try call.connection.objectServer.managedObjectsReply(at: call.path) })
        ],
        signals: [
            DBusSignal(
                "InterfacesAdded",
                arguments: [
                    DBusArgument("object_path", .objectPath),
                    DBusArgument(
                        "interfaces_and_properties",
                        .dictionary(key: .string, value: .dictionary(key: .string, value: .variant))),
                ]),
            DBusSignal(
                "InterfacesRemoved",
                arguments: [DBusArgument("object_path", .objectPath), DBusArgument("interfaces", .array(.string))]),
        ])

    /// `GetManagedObjects`' result: `a{oa{sa{sv}}}`.
    static let managedObjectsType = DBusType.dictionary(
        key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)))

    /// What introspection lists for every path, in this order.
    static let always = [peer, introspectable, properties]

    /// The standard interfaces' routes (``MethodRoutes``) on a path without an object manager, `Peer` apart.
    static let routes: [MethodRoutes.Interface] = [introspectable, properties].map { ($0.name, $0.methods) }
    /// The same where an object manager is.
    static let managerRoutes: [MethodRoutes.Interface] =
        [introspectable, properties, objectManager].map { ($0.name, $0.methods) }

    /// Property values by name (`a{sv}`), in declaration order.
    struct PropertyValues: DBusRepresentable {
        var entries: [DBusDictionaryEntry]

        init(_ entries: [DBusDictionaryEntry]) { self.entries = entries }

        static var dbusType: DBusType { .dictionary(key: .string, value: .variant) }

        init(dbusValue: DBusValue) throws {
            guard case .dictionary(.string, .variant, let entries) = dbusValue else {
                throw DBusError.invalidArgs("expected properties 'a{sv}', got '\(dbusValue.type.signature)'")
            }
            self.entries = entries
        }

        var dbusValue: DBusValue { .dictionary(key: .string, value: .variant, entries) }
    }
}
