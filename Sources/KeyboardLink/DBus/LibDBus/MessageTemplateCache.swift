internal import CDBus

/// Headers of the messages a connection sends again and again, built once and copied for each message.
///
/// A method call to the same destination, path, interface and member, or a method return to the same peer, differs
/// from the previous one only in its serial, its reply serial and its body. `dbus_message_copy` of a body-less
/// template costs about 1,300 instructions where `dbus_message_new_method_call` costs about 9,600 (it checks and
/// writes four header fields); a return copied from a template that already has a reply serial has it overwritten in
/// place instead of a header field being added, about 5,800 instructions against 8,100. The message that goes out
/// is the same either way.
///
/// Confined to the owning connection's loop thread (messages are built there); not `Sendable`.
final class MessageTemplateCache {
    private struct CallKey: Equatable {
        let destination: BusName?
        let path: ObjectPath
        let interface: InterfaceName?
        let member: MemberName
    }

    /// Enough for the call sites and peers a program talks to in turn; past it the oldest entry is replaced, so the
    /// cache stays bounded whatever a program does.
    static let capacity = 16

    /// A template and what it was built for.
    private struct Entry<Key> {
        let key: Key
        let raw: OpaquePointer
    }

    private var calls: [Entry<CallKey>] = []
    private var nextCallReplaced = 0
    private var returns: [Entry<BusName?>] = []
    private var nextReturnReplaced = 0

    deinit {
        for entry in calls { dbus_message_unref(entry.raw) }
        for entry in returns { dbus_message_unref(entry.raw) }
    }

    /// A new method call with these header fields and no body; the caller owns the returned reference.
    func newCall(destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName)
        -> OpaquePointer?
    {
        let key = CallKey(destination: destination, path: path, interface: interface, member: member)
        for entry in calls where entry.key == key {
            return dbus_message_copy(entry.raw)
        }
        guard
            let raw = dbus_message_new_method_call(
                destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)
        else { return nil }
        Self.insert(Entry(key: key, raw: raw), into: &calls, replacing: &nextCallReplaced)
        return dbus_message_copy(raw)
    }

    /// A new method return to `destination` answering `replySerial`, flagged no-reply, with no body; the caller owns
    /// the returned reference.
    func newReturn(destination: BusName?, replySerial: UInt32) -> OpaquePointer? {
        var template: OpaquePointer?
        for entry in returns where entry.key == destination {
            template = entry.raw
            break
        }
        if template == nil {
            guard let raw = dbus_message_new(MessageCodec.messageTypeMethodReturn) else { return nil }
            // The reply serial is a placeholder: each copy overwrites it in place.
            guard destination.map({ dbus_message_set_destination(raw, $0.rawValue) != 0 }) ?? true,
                dbus_message_set_reply_serial(raw, 1) != 0
            else {
                dbus_message_unref(raw)
                return nil
            }
            dbus_message_set_no_reply(raw, 1)
            Self.insert(Entry(key: destination, raw: raw), into: &returns, replacing: &nextReturnReplaced)
            template = raw
        }
        guard let template, let copy = dbus_message_copy(template) else { return nil }
        guard dbus_message_set_reply_serial(copy, replySerial) != 0 else {
            dbus_message_unref(copy)
            return nil
        }
        return copy
    }

    private static func insert<Key>(
        _ entry: Entry<Key>, into entries: inout [Entry<Key>], replacing next: inout Int
    ) {
        if entries.count < capacity {
            entries.append(entry)
        } else {
            dbus_message_unref(entries[next].raw)
            entries[next] = entry
            next = (next + 1) % capacity
        }
    }
}
