import KeyboardLinkDBus

/// Who is calling: what the bus says about a connection (`GetConnectionCredentials`) and what `/proc` says about its
/// process.
package struct CallerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The caller's unique bus name, such as `:1.42`.
    package var busName: BusName
    /// The user the connection authenticated as.
    package var uid: UInt32
    /// The connecting process, when the bus knows it.
    package var pid: UInt32?
    /// The process's groups as the bus read them from the socket, when it could (Linux with `SO_PEERGROUPS`).
    package var groupIDs: [UInt32]?
    /// The process's command name (`/proc/PID/comm`), when it can still be read.
    package var commandName: String?

    /// Creates credentials (the ``Authorizer`` reads them from the bus).
    package init(busName: BusName, uid: UInt32, pid: UInt32?, groupIDs: [UInt32]?, commandName: String?) {
        self.busName = busName
        self.uid = uid
        self.pid = pid
        self.groupIDs = groupIDs
        self.commandName = commandName
    }

    /// For the journal: `uid 1000 pid 4242 (kblink) :1.42`.
    package var description: String {
        var text = "uid \(uid)"
        if let pid { text += " pid \(pid)" }
        if let commandName { text += " (\(commandName))" }
        return text + " " + busName.rawValue
    }
}
