import KeyboardLink
import Testing

extension CrossImplementation {
    /// gdbus (GLib's parser) and busctl (sd-bus's parser) read the introspection XML our object server generates
    /// for ``EchoService`` and list its methods, signals and properties with their types.
    @Suite("gdbus and busctl introspect our objects")
    struct IntrospectionToolTests {
        static let busName = BusName("com.example.Echo")

        /// Exports ``EchoService`` under the well-known name, then runs `body` with the bus address.
        private func withEchoService(_ body: (TestBus, BusConnection) async throws -> Void) async throws {
            try await withBus { bus, server, client in
                try await server.export(EchoService.declaration(), at: EchoService.path)
                let reply = try await server.requestName(Self.busName)
                #expect(reply == .primaryOwner)
                try await body(bus, client)
            }
        }

        /// The statements of one interface in `gdbus introspect` output, whitespace collapsed, multi-line
        /// declarations and their annotations joined: `"Add(in i a, in i b, out i sum);"`, keyed by section.
        static func gdbusSections(_ output: String, interface: String) -> [String: [String]] {
            var sections: [String: [String]] = [:]
            var inside = false
            var section = ""
            var pending = ""
            for rawLine in output.split(separator: "\n", omittingEmptySubsequences: true) {
                let line = rawLine.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                if !inside {
                    inside = line == "interface \(interface) {"
                    continue
                }
                if line == "};" { break }
                if line.hasSuffix(":") && !line.contains("(") {
                    section = String(line.dropLast())
                    sections[section, default: []] = []
                    continue
                }
                pending += pending.isEmpty ? line : " " + line
                if line.hasSuffix(";") {
                    sections[section, default: []].append(pending)
                    pending = ""
                }
            }
            return sections
        }

        @Test("gdbus introspect lists our methods, signals and properties with values")
        func gdbusIntrospect() async throws {
            try await withEchoService { bus, _ in
                let output = try await ToolProcess.run(
                    "/usr/bin/gdbus",
                    [
                        "introspect", "--address", bus.address, "--dest", Self.busName.rawValue,
                        "--object-path", EchoService.path.rawValue,
                    ])
                let sections = Self.gdbusSections(output, interface: "com.example.Echo")
                #expect(
                    sections["methods"] == [
                        "Echo(in v value, out v value);",
                        "Concat(in s a, in s b, out s joined);",
                        "Fail(in s message);",
                        "Slow(in u milliseconds, out b done);",
                        "Add(in i a, in i b, out i sum);",
                    ], "\(output)")
                #expect(sections["signals"] == ["Pinged(u count);"], "\(output)")
                // gdbus reads the values with GetAll and prints them in GVariant text form.
                #expect(
                    sections["properties"] == [
                        "readonly s Name = 'echo';",
                        "readwrite u Volume = 5;",
                        "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"const\") readonly s Serial = 'S-1';",
                        "@org.freedesktop.DBus.Property.EmitsChangedSignal(\"invalidates\") readonly s Secret = 'a';",
                    ], "\(output)")
                // The standard interfaces the object server answers itself are declared too.
                for standard in [
                    "org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable",
                    "org.freedesktop.DBus.Properties",
                ] {
                    #expect(output.contains("interface \(standard) {"), "\(standard) missing from \(output)")
                }
                let properties = Self.gdbusSections(output, interface: "org.freedesktop.DBus.Properties")
                #expect(
                    properties["methods"]?.contains("Get(in s interface_name, in s property_name, out v value);")
                        == true)
                #expect(
                    properties["signals"] == [
                        "PropertiesChanged(s interface_name, a{sv} changed_properties, as invalidated_properties);"
                    ])
            }
        }

        @Test("gdbus introspect --recurse follows our child nodes")
        func gdbusRecurse() async throws {
            try await withEchoService { bus, _ in
                let output = try await ToolProcess.run(
                    "/usr/bin/gdbus",
                    [
                        "introspect", "--address", bus.address, "--dest", Self.busName.rawValue,
                        "--object-path", "/", "--recurse", "--only-properties",
                    ])
                let nodes = output.split(separator: "\n").map { $0.drop { $0 == " " } }.filter { $0.hasPrefix("node ") }
                    .map { String($0.dropFirst("node ".count).prefix { $0 != " " }) }
                #expect(nodes == ["/", "/com", "/com/example", "/com/example/echo"], "\(output)")
                #expect(output.contains("readwrite u Volume = 5;"), "\(output)")
            }
        }

        /// One row of `busctl introspect`: NAME TYPE SIGNATURE RESULT/VALUE FLAGS.
        struct BusctlRow: Equatable, CustomStringConvertible {
            var name: String
            var type: String
            var signature: String
            var value: String
            var flags: String

            var description: String { [name, type, signature, value, flags].joined(separator: " | ") }
        }

        /// Parses the table: columns are separated by runs of spaces; flags may hold several words.
        static func busctlRows(_ output: String) -> [BusctlRow] {
            output.split(separator: "\n").dropFirst().compactMap { line in
                let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard columns.count >= 5 else { return nil }
                return BusctlRow(
                    name: columns[0], type: columns[1], signature: columns[2], value: columns[3],
                    flags: columns[4...].joined(separator: " "))
            }
        }

        @Test("busctl introspect lists our members with signatures, values and flags")
        func busctlIntrospect() async throws {
            try await withEchoService { bus, _ in
                let output = try await ToolProcess.run(
                    "/usr/bin/busctl",
                    ["--address=\(bus.address)", "introspect", Self.busName.rawValue, EchoService.path.rawValue])
                let rows = Self.busctlRows(output)
                let echo = rows.drop { $0.name != "com.example.Echo" }.prefix {
                    $0.name.hasPrefix(".") || $0.name == "com.example.Echo"
                }
                // busctl sorts members by name within an interface.
                #expect(
                    Array(echo) == [
                        BusctlRow(name: "com.example.Echo", type: "interface", signature: "-", value: "-", flags: "-"),
                        BusctlRow(name: ".Add", type: "method", signature: "ii", value: "i", flags: "-"),
                        BusctlRow(name: ".Concat", type: "method", signature: "ss", value: "s", flags: "-"),
                        BusctlRow(name: ".Echo", type: "method", signature: "v", value: "v", flags: "-"),
                        BusctlRow(name: ".Fail", type: "method", signature: "s", value: "-", flags: "-"),
                        BusctlRow(name: ".Slow", type: "method", signature: "u", value: "b", flags: "-"),
                        BusctlRow(
                            name: ".Name", type: "property", signature: "s", value: "\"echo\"", flags: "emits-change"),
                        BusctlRow(
                            name: ".Secret", type: "property", signature: "s", value: "\"a\"",
                            flags: "emits-invalidation"),
                        BusctlRow(name: ".Serial", type: "property", signature: "s", value: "\"S-1\"", flags: "const"),
                        BusctlRow(
                            name: ".Volume", type: "property", signature: "u", value: "5",
                            flags: "emits-change writable"),
                        BusctlRow(name: ".Pinged", type: "signal", signature: "u", value: "-", flags: "-"),
                    ], "\(output)")
                #expect(rows.contains { $0.name == "org.freedesktop.DBus.Properties" && $0.type == "interface" })
                #expect(rows.contains { $0.name == ".PropertiesChanged" && $0.signature == "sa{sv}as" }, "\(output)")
            }
        }

        @Test("busctl tree walks our child nodes")
        func busctlTree() async throws {
            try await withEchoService { bus, _ in
                let output = try await ToolProcess.run(
                    "/usr/bin/busctl", ["--address=\(bus.address)", "--list", "tree", Self.busName.rawValue])
                let paths = output.split(separator: "\n").map { String($0) }
                #expect(paths == ["/", "/com", "/com/example", "/com/example/echo"], "\(output)")
            }
        }
    }
}
