internal import CBlueZ

/// A marshalled reply kept to be copied: `GetManagedObjects` of a thousand keyboards costs milliseconds to build and
/// encode, and a copy costs a `memcpy`.
final class ReplyTemplate {
    let raw: OpaquePointer

    init(raw: OpaquePointer) { self.raw = raw }

    deinit { dbus_message_unref(raw) }
}

extension BusConnection {
    /// Answers `call` with the body `build` makes, reusing the encoded message kept under `key` until
    /// ``invalidateReplyTemplates()``. Runs on the loop; `build` must return values the server already checked.
    func replyFromTemplate(_ call: Message, key: ObjectPath, build: () -> [DBusValue]) {
        assertOnQueue()
        guard isOpen, !call.noReplyExpected else { return }
        let template: ReplyTemplate
        if let cached = replyTemplates[key] {
            template = cached
        } else {
            guard let raw = try? MessageCodec.makeMessage(Message(kind: .methodReturn, body: build()), checked: false)
            else { return }
            template = ReplyTemplate(raw: raw)
            replyTemplates[key] = template
        }
        guard let copy = dbus_message_copy(template.raw) else { return }
        defer { dbus_message_unref(copy) }
        _ = dbus_message_set_reply_serial(copy, call.serial)
        if let sender = call.sender { _ = dbus_message_set_destination(copy, sender.rawValue) }
        _ = dbus_connection_send(raw, copy, nil)
    }

    /// Drops every kept reply (an object or a property changed).
    func invalidateReplyTemplates() {
        if !replyTemplates.isEmpty { replyTemplates.removeAll() }
    }
}
