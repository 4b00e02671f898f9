/// Generates `org.freedesktop.DBus.Introspectable` XML from interface declarations.
public enum IntrospectionXML {
    static let doctype =
        "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n"
        + "\"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"

    /// The document for one object: its interfaces and the names of its child nodes.
    public static func document(interfaces: [DBusInterface], children: [String]) -> String {
        var xml = doctype + "<node>\n"
        for interface in interfaces {
            xml += self.interface(interface)
        }
        for child in children {
            xml += "  <node name=\"\(escape(child))\"/>\n"
        }
        xml += "</node>\n"
        return xml
    }

    /// One `<interface>` element.
    public static func interface(_ interface: DBusInterface) -> String {
        var xml = "  <interface name=\"\(interface.name.rawValue)\">\n"
        for method in interface.methods {
            if method.inputs.isEmpty && method.outputs.isEmpty {
                xml += "    <method name=\"\(method.name.rawValue)\"/>\n"
                continue
            }
            xml += "    <method name=\"\(method.name.rawValue)\">\n"
            for argument in method.inputs { xml += argumentElement(argument, direction: "in") }
            for argument in method.outputs { xml += argumentElement(argument, direction: "out") }
            xml += "    </method>\n"
        }
        for signal in interface.signals {
            if signal.arguments.isEmpty {
                xml += "    <signal name=\"\(signal.name.rawValue)\"/>\n"
                continue
            }
            xml += "    <signal name=\"\(signal.name.rawValue)\">\n"
            for argument in signal.arguments { xml += argumentElement(argument, direction: nil) }
            xml += "    </signal>\n"
        }
        for property in interface.properties {
            let opening =
                "    <property name=\"\(property.name.rawValue)\" type=\"\(property.type.signature)\" access=\"\(property.access.rawValue)\""
            if property.changeBehavior == .emits {
                xml += opening + "/>\n"
            } else {
                xml += opening + ">\n"
                xml +=
                    "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.changeBehavior.rawValue)\"/>\n"
                xml += "    </property>\n"
            }
        }
        xml += "  </interface>\n"
        return xml
    }

    private static func argumentElement(_ argument: DBusArgument, direction: String?) -> String {
        var xml = "      <arg"
        if !argument.name.isEmpty { xml += " name=\"\(escape(argument.name))\"" }
        xml += " type=\"\(escape(argument.type.signature))\""
        if let direction { xml += " direction=\"\(direction)\"" }
        return xml + "/>\n"
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
