import KeyboardLinkSupport

/// A D-Bus match rule for signals, rendered for `AddMatch` and also checked locally, so that two
/// subscriptions on one connection only see their own signals.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    public var sender: BusName?
    public var path: ObjectPath?
    public var pathNamespace: ObjectPath?
    public var interface: InterfaceName?
    public var member: MemberName?
    /// The first argument, when it is a string (for example an interface name in `PropertiesChanged`).
    public var arg0: String?

    public init(
        sender: BusName? = nil, path: ObjectPath? = nil, pathNamespace: ObjectPath? = nil,
        interface: InterfaceName? = nil, member: MemberName? = nil, arg0: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule text for `org.freedesktop.DBus.AddMatch`.
    public var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender.rawValue)'") }
        if let path { parts.append("path='\(path.rawValue)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace.rawValue)'") }
        if let interface { parts.append("interface='\(interface.rawValue)'") }
        if let member { parts.append("member='\(member.rawValue)'") }
        if let arg0 {
            // Quoting as the specification says: a quote is written as '\'' .
            parts.append("arg0='\(arg0.replacingEvery("'", with: "'\\''"))'")
        }
        return parts.joined(separator: ",")
    }

    /// Whether `message` passes the fields its header carries (all but the sender, which needs the bus's name owners,
    /// and `arg0`, which needs the body).
    func matchesHeader(_ message: Message) -> Bool {
        guard message.kind == .signal else { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let messagePath = message.path, messagePath.isDescendant(of: pathNamespace) else { return false }
        }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        return true
    }

    /// Whether `message`'s first argument is what the rule asks for: read alone, without decoding the rest of the body.
    func matchesArguments(_ message: Message) -> Bool {
        guard let arg0 else { return true }
        return message.firstStringArgument == arg0
    }
}
