internal import CDBus
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A libdbus object pointer captured by a job for the connection's loop thread.
struct QueueConfinedPointer: @unchecked Sendable {
    // Why @unchecked Sendable is safe: the pointer is only dereferenced by libdbus calls made on the owning
    // connection's loop thread, the only thread the capturing jobs run on.
    let pointer: OpaquePointer
}

extension BusConnection {
    /// Opens the raw connection; runs on the new connection's loop thread (it blocks for `Hello`).
    static func openRaw(_ address: BusAddress) throws -> OpaquePointer {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        func failure(_ what: String) -> DBusError {
            let detail = error.message.map { String(cString: $0) } ?? "no detail"
            return .disconnected("cannot connect to the \(what): \(detail)")
        }
        let raw: OpaquePointer?
        switch address {
        case .system:
            raw = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
            guard let raw else { throw failure("system bus (is dbus-daemon running?)") }
            dbus_connection_set_exit_on_disconnect(raw, 0)
            return raw
        case .session:
            // Without an address libdbus would try to autolaunch a bus, which needs X11: say so instead.
            guard getenv("DBUS_SESSION_BUS_ADDRESS") != nil else {
                throw DBusError.disconnected(
                    "cannot connect to the session bus: DBUS_SESSION_BUS_ADDRESS is not set; use --bus system or an address"
                )
            }
            raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
            guard let raw else { throw failure("session bus") }
            dbus_connection_set_exit_on_disconnect(raw, 0)
            return raw
        case .address(let text):
            guard NameValidation.checkStringPayload(text) == nil else {
                throw DBusError.invalidArgs("a bus address cannot contain NUL")
            }
            raw = dbus_connection_open_private(text, &error)
            guard let raw else { throw failure("bus at \(text)") }
            dbus_connection_set_exit_on_disconnect(raw, 0)
            guard dbus_bus_register(raw, &error) != 0 else {
                let thrown = failure("bus at \(text)")
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw thrown
            }
            return raw
        }
    }

    /// Hooks libdbus into the connection's loop: watches, timeouts, dispatch status and the message filter.
    func installMainLoop() {
        assertOnQueue()
        let context = Unmanaged.passUnretained(self).toOpaque()
        loop.handleWatch = { [weak self] watch, flags in
            guard let self, self.isOpen else { return }
            _ = dbus_watch_handle(watch, flags)
        }
        loop.handleTimeout = { [weak self] timeout in
            guard let self, self.isOpen else { return }
            _ = dbus_timeout_handle(timeout)
        }
        loop.afterIO = { [weak self] in self?.dispatchAll() }
        loop.earliestCallDeadline = { [weak self] in self?.callDeadlines.earliest }
        loop.expireCalls = { [weak self] now in self?.expireCalls(asOf: now) }
        dbus_connection_set_watch_functions(
            raw,
            { watch, data in
                guard let watch, let data else { return 0 }
                return Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().addWatch(watch) ? 1 : 0
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().loop.watches[watch] = nil
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().loop.watches[watch]?.enabled =
                    dbus_watch_get_enabled(watch) != 0
            },
            context, nil)
        dbus_connection_set_timeout_functions(
            raw,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().loop.timeouts[timeout] = nil
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
            },
            context, nil)
        dbus_connection_set_dispatch_status_function(
            raw,
            { _, status, data in
                guard let data, status == DBUS_DISPATCH_DATA_REMAINS else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().scheduleDispatch()
            },
            context, nil)
        _ = dbus_connection_add_filter(
            raw,
            { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                return Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().filter(message)
            },
            context, nil)
        // Messages may already be queued (those read while registering).
        scheduleDispatch()
    }

    /// Makes the loop dispatch soon. libdbus may call this with its lock held, so never dispatch inline: the
    /// loop dispatches after every round of jobs and I/O, and an empty job wakes it from another thread.
    func scheduleDispatch() {
        if !loop.isCurrent { loop.async {} }
    }

    func dispatchAll() {
        guard isOpen else { return }
        while isOpen && dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func addWatch(_ watch: OpaquePointer) -> Bool {
        let fd = dbus_watch_get_unix_fd(watch)
        guard fd >= 0 else { return false }
        loop.watches[watch] = ConnectionLoop.WatchEntry(
            fd: fd, flags: dbus_watch_get_flags(watch), enabled: dbus_watch_get_enabled(watch) != 0)
        return true
    }

    private func addTimeout(_ timeout: OpaquePointer) {
        let interval = Int(max(1, dbus_timeout_get_interval(timeout)))
        loop.timeouts[timeout] = ConnectionLoop.TimeoutEntry(
            interval: interval, enabled: dbus_timeout_get_enabled(timeout) != 0,
            deadline: ContinuousClock.now.advanced(by: .milliseconds(interval)))
    }

    /// Every incoming message passes here, on the loop, during `dbus_connection_dispatch`.
    private func filter(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        if dbus_message_get_type(rawMessage) == MessageCodec.messageTypeMethodCall {
            dispatchCall(rawMessage)
            return DBUS_HANDLER_RESULT_HANDLED
        }
        var message: Message
        do {
            message = try MessageCodec.decodeHeader(rawMessage, strings: headerStrings)
        } catch {
            return DBUS_HANDLER_RESULT_HANDLED
        }
        switch message.kind {
        case .methodCall:
            return DBUS_HANDLER_RESULT_HANDLED  // Dispatched above.
        case .signal:
            // Its body is read only when a subscription wants the signal.
            deliverSignal(message, from: rawMessage)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodReturn, .error:
            do {
                try MessageCodec.attachBody(
                    of: rawMessage, to: &message, strings: headerStrings, valueBudget: callLimits.valuesPerMessage)
            } catch {
                return DBUS_HANDLER_RESULT_HANDLED
            }
            return completeCall(with: message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}
