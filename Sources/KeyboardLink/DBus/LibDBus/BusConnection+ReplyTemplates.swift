internal import CDBus

/// A marshalled reply kept to be copied: `GetManagedObjects` of a thousand keyboards costs milliseconds to build and
/// encode, and a copy costs a `memcpy`.
final class ReplyTemplate: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `raw` is never modified after init (each reply is a copy of it), and the
    // template is made, copied and released on its connection's loop thread only (it travels in a handler's result
    // from the handler, which runs there, to the reply, sent there).
    let raw: OpaquePointer

    init(raw: OpaquePointer) { self.raw = raw }

    deinit { dbus_message_unref(raw) }
}

extension BusConnection {
    /// The method return whose body `build` makes, kept under `key` until ``invalidateReplyTemplates()``; nil when
    /// libdbus runs out of memory. Runs on the loop; `build` must return values the server already checked.
    func replyTemplate(key: ObjectPath, build: () -> [DBusValue]) -> ReplyTemplate? {
        assertOnQueue()
        if let cached = replyTemplates[key] { return cached }
        guard let raw = try? MessageCodec.makeMessage(Message(kind: .methodReturn, body: build()), checked: false)
        else { return nil }
        let template = ReplyTemplate(raw: raw)
        replyTemplates[key] = template
        return template
    }

    /// Sends a copy of `template` answering the call `origin` describes; false when libdbus runs out of memory.
    func sendCopy(of template: ReplyTemplate, to origin: CallOrigin) -> Bool {
        guard let copy = dbus_message_copy(template.raw) else { return false }
        defer { dbus_message_unref(copy) }
        guard dbus_message_set_reply_serial(copy, origin.serial) != 0,
            origin.sender.map({ dbus_message_set_destination(copy, $0.rawValue) != 0 }) ?? true
        else { return false }
        return dbus_connection_send(raw, copy, nil) != 0
    }

    /// Drops every kept reply (an object or a property changed).
    func invalidateReplyTemplates() {
        if !replyTemplates.isEmpty { replyTemplates.removeAll() }
    }
}
