/// Signals matching one ``MatchRule``, as an `AsyncSequence`.
///
/// The match rule stays on the bus while the stream is iterated or held; it is removed when iteration ends
/// (the task is cancelled or the loop exits) or the stream is released.
public struct SignalStream: AsyncSequence, Sendable {
    public typealias Element = Message
    let stream: AsyncStream<Message>

    public func makeAsyncIterator() -> AsyncStream<Message>.AsyncIterator {
        stream.makeAsyncIterator()
    }
}

/// One subscription, held by the connection.
struct SignalSubscriber {
    let rule: MatchRule
    let continuation: AsyncStream<Message>.Continuation
}

extension BusConnection {
    private static let localPath: ObjectPath = "/org/freedesktop/DBus/Local"
    private static let busPath: ObjectPath = "/org/freedesktop/DBus"

    /// Subscribes to signals: the rule is registered locally first, then with the bus (`AddMatch`), so that
    /// once this returns no matching signal is missed.
    /// - Throws: ``DBusError`` when the bus refuses the rule.
    public func subscribe(to rule: MatchRule) async throws -> SignalStream {
        try await subscribe(to: rule, buffering: .unbounded).stream
    }

    /// Subscribes, keeping at most what `buffering` says of the signals not yet read; returns the subscription's id.
    private func subscribe(
        to rule: MatchRule, buffering: AsyncStream<Message>.Continuation.BufferingPolicy
    ) async throws -> (id: UInt64, stream: SignalStream) {
        let (stream, continuation) = AsyncStream<Message>.makeStream(bufferingPolicy: buffering)
        let id = nextID()
        await onQueue { self.subscriptions[id] = SignalSubscriber(rule: rule, continuation: continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.loop.async { self.removeSubscription(id) }
        }
        do {
            _ = try await callBus("AddMatch", [.string(rule.description)])
            if let sender = rule.sender, !sender.isUnique, sender != .messageBus {
                try await trackOwner(of: sender)
            }
        } catch {
            continuation.finish()
            throw error
        }
        return (id, SignalStream(stream: stream))
    }

    private func removeSubscription(_ id: UInt64) {
        assertOnQueue()
        guard let subscriber = subscriptions.removeValue(forKey: id) else { return }
        guard isOpen else { return }
        sendRemoveMatch(subscriber.rule)
        if let sender = subscriber.rule.sender, !sender.isUnique { stopTrackingOwnerIfUnused(sender) }
    }

    private func sendRemoveMatch(_ rule: MatchRule) {
        var removeMatch = Message.methodCall(
            destination: .messageBus, path: Self.busPath, interface: .dbus,
            member: "RemoveMatch", body: [.string(rule.description)])
        removeMatch.noReplyExpected = true
        _ = sendNow(removeMatch)
    }

    /// Once no subscription filters on `name` any more, forgets its owner and ends the internal `NameOwnerChanged`
    /// subscription that kept it current (its match rule leaves the bus).
    private func stopTrackingOwnerIfUnused(_ name: BusName) {
        assertOnQueue()
        guard !subscriptions.values.contains(where: { $0.rule.sender == name }) else { return }
        nameOwners[name] = nil
        guard let tracker = ownerTrackers.removeValue(forKey: name) else { return }
        if let trackerSubscription = subscriptions.removeValue(forKey: tracker.id) {
            if isOpen { sendRemoveMatch(trackerSubscription.rule) }
            trackerSubscription.continuation.finish()
        }
    }

    /// Learns who owns `name` so that local matching can compare unique senders.
    private func trackOwner(of name: BusName) async throws {
        let ownerRule = MatchRule(
            sender: .messageBus, path: Self.busPath, interface: .dbus,
            member: "NameOwnerChanged", arg0: name.rawValue)
        // An internal subscription keeps the owner cache current while the user's subscription lives.
        let alreadyTracked = await onQueue {
            self.subscriptions.values.contains { $0.rule == ownerRule }
        }
        if !alreadyTracked {
            // Nobody reads this stream: keep none of its signals (the owner cache is updated as they are delivered).
            let (id, stream) = try await subscribe(to: ownerRule, buffering: .bufferingNewest(1))
            let holder = OwnerTrackingHolder(id: id, stream: stream)
            await onQueue {
                self.ownerTrackers[name] = holder
                // The subscription that needed it may have ended meanwhile.
                self.stopTrackingOwnerIfUnused(name)
            }
        }
        let reply: Message
        do {
            reply = try await callBus("GetNameOwner", [.string(name.rawValue)])
        } catch let error as DBusError where error.name == .nameHasNoOwner {
            return
        }
        let owner = try BusName(reply.decode(String.self))
        let serial = reply.serial
        await onQueue {
            if let known = self.nameOwners[name], known.serial > serial { return }
            self.nameOwners[name] = (owner, serial)
        }
    }

    /// Delivers a received signal to the subscriptions that match it. `header` is the signal without its body; who
    /// gets it is decided from the header and the sender first, so a signal nobody subscribed to, or one from a sender
    /// a rule does not name, is dropped without its body being copied or decoded; `arg0` is then read alone.
    func deliverSignal(_ header: Message, from raw: OpaquePointer) {
        assertOnQueue()
        if header.path == Self.localPath, header.member?.rawValue == "Disconnected" {
            failPendingCalls(.disconnected("the connection to the bus was lost (did dbus-daemon stop?)"))
            for (_, subscriber) in subscriptions { subscriber.continuation.finish() }
            subscriptions.removeAll()
            return
        }
        // Only the bus itself can send as org.freedesktop.DBus: another peer's NameOwnerChanged is just a signal.
        let isOwnerChange = header.sender == .messageBus && header.member?.rawValue == "NameOwnerChanged"
        let receivers = subscriptions.values.filter { subscriber in
            senderMatches(subscriber.rule, header.sender) && subscriber.rule.matchesHeader(header)
        }
        guard isOwnerChange || !receivers.isEmpty else { return }
        var message = header
        do {
            try MessageCodec.attachBody(
                of: raw, to: &message, strings: headerStrings, valueBudget: callLimits.valuesPerMessage)
        } catch {
            return
        }
        if isOwnerChange, message.body.count == 3,
            let name = message.body[0].stringValue.flatMap(BusName.init(validating:)),
            nameOwners[name] != nil || ownerTrackers[name] != nil
        {
            let newOwner = message.body[2].stringValue.flatMap(BusName.init(validating:))
            if (nameOwners[name]?.serial ?? 0) < message.serial {
                nameOwners[name] = (newOwner, message.serial)
            }
        }
        for subscriber in receivers where subscriber.rule.matchesArguments(message) {
            subscriber.continuation.yield(message)
        }
    }

    /// Whether a signal from `sender` may reach a subscription with `rule`: any sender when the rule names none, else
    /// the named unique name, or the current owner of the named well-known name.
    private func senderMatches(_ rule: MatchRule, _ sender: BusName?) -> Bool {
        guard let expected = rule.sender else { return true }
        if expected.isUnique || expected == .messageBus { return sender == expected }
        return sender == expected || (sender != nil && nameOwners[expected]?.owner == sender)
    }

    /// Follows the owner of a well-known name: yields the current owner (nil when none) and then every change.
    ///
    /// The subscription to `NameOwnerChanged` is made before asking `GetNameOwner`, and changes older than
    /// that answer are dropped, so no change is missed or replayed.
    public func ownerChanges(of name: BusName) async throws -> AsyncStream<BusName?> {
        let changes = try await subscribe(
            to: MatchRule(
                sender: .messageBus, path: Self.busPath, interface: .dbus,
                member: "NameOwnerChanged", arg0: name.rawValue))
        var current: BusName?
        var currentSerial: UInt32 = 0
        do {
            let reply = try await callBus("GetNameOwner", [.string(name.rawValue)])
            current = try BusName(reply.decode(String.self))
            currentSerial = reply.serial
        } catch let error as DBusError where error.name == .nameHasNoOwner {
            current = nil
        }
        let initial = current
        let initialSerial = currentSerial
        return AsyncStream { continuation in
            continuation.yield(initial)
            let task = Task {
                for await message in changes where message.serial > initialSerial {
                    let owner = message.body.count == 3 ? message.body[2].stringValue : nil
                    continuation.yield(owner.flatMap(BusName.init(validating:)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Keeps an internal `NameOwnerChanged` subscription alive while subscriptions filter on the name's owner.
final class OwnerTrackingHolder: Sendable {
    /// The internal subscription's id in `BusConnection.subscriptions`.
    let id: UInt64
    let stream: SignalStream
    init(id: UInt64, stream: SignalStream) {
        self.id = id
        self.stream = stream
    }
}
