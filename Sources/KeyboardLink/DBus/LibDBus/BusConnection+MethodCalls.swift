internal import CBlueZ

extension BusConnection {
    /// Answers a call to a typed method (see ``TypedMethodBody``) from the libdbus message, during its dispatch on the
    /// loop. Returns false when the call is not for one, and must take the general path.
    func answerTypedCall(_ call: OpaquePointer) -> Bool {
        guard dbus_message_get_type(call) == MessageCodec.messageTypeMethodCall,
            let body = objectServer.typedBody(for: call)
        else { return false }
        typedCallsAnswered += 1
        let replyTo = TypedCallOrigin(
            serial: dbus_message_get_serial(call),
            sender: dbus_message_get_sender(call).map { headerStrings.sender($0) },
            wantsReply: dbus_message_get_no_reply(call) == 0)
        let work: TypedMethodBody.Work
        do {
            work = try body.prepare(call, self)
        } catch {
            sendTypedAnswer(.failure(error), of: body, to: replyTo)
            return true
        }
        switch work {
        case .answered(let value):
            sendTypedAnswer(.success(value), of: body, to: replyTo)
        case .later(let operation):
            // As for other asynchronous handlers: it starts here, inside the dispatch, and one that suspends resumes on
            // the connection's executor.
            Task.immediate(executorPreference: loop) { [self] in
                let result: Result<DBusValue?, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                if loop.isCurrent {
                    sendTypedAnswer(result, of: body, to: replyTo)
                } else {
                    loop.async { self.sendTypedAnswer(result, of: body, to: replyTo) }
                }
            }
        }
        return true
    }

    /// Sends a typed method's reply: its result appended to a method return, or the error it threw. A result of
    /// another type than declared is answered with an internal error naming both, as the general path does.
    private func sendTypedAnswer(
        _ result: Result<DBusValue?, any Error>, of body: TypedMethodBody, to origin: TypedCallOrigin
    ) {
        guard origin.wantsReply, isOpen else { return }
        let answer: DBusError
        do {
            let value = try result.get()
            if value?.type == body.resultType {
                switch value {
                case .byte?, .boolean?, .int16?, .uint16?, .int32?, .uint32?, .int64?, .uint64?, .double?, .unixFD?,
                    nil:
                    break  // Nothing libdbus could refuse.
                default:
                    // The reply's body is this one value: checking it also bounds the body's signature (255 bytes)
                    // and nesting, which libdbus would loop or abort on.
                    if let value { try MessageCodec.checkEncodable(value) }
                }
                if sendReturn(value, to: origin) { return }
                answer = .failed("out of memory building a D-Bus message")
            } else {
                let produced = value.map { $0.type.signature } ?? ""
                let declared = body.resultType?.signature ?? ""
                answer = .failed("internal error: the method produced '\(produced)' instead of '\(declared)'")
            }
        } catch let thrown as DBusError {
            answer = thrown
        } catch {
            answer = .failed("\(error)")
        }
        var call = Message(kind: .methodCall)
        call.serial = origin.serial
        call.sender = origin.sender
        _ = sendNow(.error(to: call, answer))
    }

    /// Sends a method return carrying `value` (nothing when nil); false when libdbus runs out of memory.
    private func sendReturn(_ value: DBusValue?, to origin: TypedCallOrigin) -> Bool {
        guard let reply = messageTemplates.newReturn(destination: origin.sender, replySerial: origin.serial) else {
            return false
        }
        defer { dbus_message_unref(reply) }
        if let value {
            var iterator = DBusMessageIter()
            dbus_message_iter_init_append(reply, &iterator)
            guard MessageCodec.append(value, to: &iterator) else { return false }
        }
        return dbus_connection_send(raw, reply, nil) != 0
    }
}

/// Where a typed method's reply goes.
struct TypedCallOrigin: Sendable {
    let serial: UInt32
    let sender: BusName?
    let wantsReply: Bool
}
