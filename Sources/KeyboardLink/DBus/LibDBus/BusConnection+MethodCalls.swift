internal import CDBus

extension BusConnection {
    /// Answers a received method call, during its dispatch on the loop: the one path from a call to a handler, for
    /// every method (the standard interfaces' too).
    ///
    /// The call is routed from its header fields as libdbus holds them (``MethodRoutes``); an unknown object,
    /// interface or method, or arguments of another signature, are answered with the standard error before any
    /// handler runs. The method's ``MethodBody`` reads the arguments from the libdbus message and runs the handler: a
    /// synchronous one here, inside the dispatch; an asynchronous one in a task that starts here and may reply later.
    func dispatchCall(_ call: OpaquePointer) {
        guard let route = objectServer.route(call) else { return }
        let origin = CallOrigin(
            serial: dbus_message_get_serial(call),
            sender: dbus_message_get_sender(call).map { headerStrings.sender($0) },
            wantsReply: dbus_message_get_no_reply(call) == 0)
        let body: MethodBody
        switch route {
        case .method(let found):
            body = found
        case .refused(let error):
            sendError(error, to: origin)
            return
        }
        // What the caller sent is measured from its lengths before anything of it is decoded.
        if let error = bodyLimitError(call, of: body) {
            sendError(error, to: origin)
            return
        }
        #if DEBUG
            if body.readsArgumentsInPlace { typedCallsAnswered += 1 }
        #endif
        if body.isAsynchronous, let error = reserveCallInFlight(of: origin.sender) {
            sendError(error, to: origin)
            return
        }
        let work: MethodBody.Work
        do {
            work = try body.prepare(call, self)
        } catch {
            if body.isAsynchronous { releaseCallInFlight(of: origin.sender) }
            sendAnswer(.failure(error), of: body, to: origin)
            return
        }
        switch work {
        case .answered(let result):
            if body.isAsynchronous { releaseCallInFlight(of: origin.sender) }
            sendAnswer(.success(result), of: body, to: origin)
        case .later(let operation):
            // It starts here, inside the dispatch: a handler that never suspends runs and replies without a job, a
            // thread switch or a later loop round. One that suspends resumes on the connection's executor, as it would
            // have started there anyway.
            Task.immediate(executorPreference: loop) { [self] in
                let result: Result<MethodResult, any Error>
                do {
                    result = .success(try await operation())
                } catch {
                    result = .failure(error)
                }
                if loop.isCurrent {
                    releaseCallInFlight(of: origin.sender)
                    sendAnswer(result, of: body, to: origin)
                } else {
                    loop.async {
                        self.releaseCallInFlight(of: origin.sender)
                        self.sendAnswer(result, of: body, to: origin)
                    }
                }
            }
        }
    }

    /// Sends a method's reply: its result appended to a method return, or the error it threw. A result of other types
    /// than declared is answered with an internal error naming both.
    private func sendAnswer(_ result: Result<MethodResult, any Error>, of body: MethodBody, to origin: CallOrigin) {
        guard origin.wantsReply, isOpen else { return }
        let answer: DBusError
        do {
            switch try result.get() {
            case .none:
                guard body.outputTypes.isEmpty else { throw Self.mismatch(body, produced: []) }
                if sendReturn(to: origin, { _ in true }) { return }
            case .one(let value):
                guard body.outputTypes.count == 1, value.type == body.outputTypes[0] else {
                    throw Self.mismatch(body, produced: [value.type])
                }
                switch value {
                case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double, .unixFD:
                    break  // Nothing libdbus could refuse.
                default:
                    // The reply's body is this one value: checking it also bounds the body's signature (255 bytes)
                    // and nesting, which libdbus would loop or abort on.
                    try MessageCodec.checkEncodable(value)
                }
                if sendReturn(to: origin, { MessageCodec.append(value, to: &$0) }) { return }
            case .values(let values):
                // Compared type by type: no signature text is built for a call that succeeds.
                guard values.count == body.outputTypes.count,
                    zip(values, body.outputTypes).allSatisfy({ $0.0.type == $0.1 })
                else { throw Self.mismatch(body, produced: values.map(\.type)) }
                try MessageCodec.checkEncodable(body: values)
                if sendReturn(to: origin, { iterator in values.allSatisfy { MessageCodec.append($0, to: &iterator) } })
                {
                    return
                }
            case .encoded(let template):
                if sendCopy(of: template, to: origin) { return }
            }
            answer = .failed("out of memory building a D-Bus message")
        } catch let thrown as any DBusErrorRepresentable {
            answer = thrown.dbusError
        } catch {
            answer = .failed("\(error)")
        }
        sendError(answer, to: origin)
    }

    private static func mismatch(_ body: MethodBody, produced: [DBusType]) -> DBusError {
        .failed(
            "internal error: \(body.name) produced '\(Signature(produced).rawValue)' instead of "
                + "'\(Signature(body.outputTypes).rawValue)'")
    }

    /// Sends a method return whose body `append` writes; false when libdbus runs out of memory.
    private func sendReturn(to origin: CallOrigin, _ append: (inout DBusMessageIter) -> Bool) -> Bool {
        guard let reply = messageTemplates.newReturn(destination: origin.sender, replySerial: origin.serial) else {
            return false
        }
        defer { dbus_message_unref(reply) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(reply, &iterator)
        guard append(&iterator) else { return false }
        return dbus_connection_send(raw, reply, nil) != 0
    }

    /// Sends an error reply to the call `origin` describes, unless it wants none.
    private func sendError(_ error: DBusError, to origin: CallOrigin) {
        guard origin.wantsReply else { return }
        var call = Message(kind: .methodCall)
        call.serial = origin.serial
        call.sender = origin.sender
        _ = sendNow(.error(to: call, error))
    }

    /// This machine's D-Bus machine ID (`org.freedesktop.DBus.Peer.GetMachineId`).
    /// - Throws: ``DBusError`` when libdbus cannot read it (no `/etc/machine-id` or `/var/lib/dbus/machine-id`).
    static func localMachineID() throws(DBusError) -> String {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let id = dbus_try_get_local_machine_id(&error) else {
            throw .failed("no machine ID: \(error.message.map { String(cString: $0) } ?? "libdbus could not read it")")
        }
        defer { dbus_free(id) }
        return String(cString: id)
    }
}

/// Where a method call's reply goes.
struct CallOrigin: Sendable {
    let serial: UInt32
    let sender: BusName?
    let wantsReply: Bool
}
