internal import CBlueZ
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// A libdbus object pointer captured by a dispatch handler.
struct QueueConfinedPointer: @unchecked Sendable {
    // Why @unchecked Sendable is safe: the pointer is only dereferenced by libdbus calls made on the owning
    // connection's queue, which is the only queue the capturing handlers run on.
    let pointer: OpaquePointer
}

/// A libdbus watch (a file descriptor it wants watched) as dispatch sources on the connection's queue.
final class WatchSource {
    let watch: OpaquePointer
    private var sources: [(source: any DispatchSourceProtocol, suspended: Bool)] = []

    init(watch: OpaquePointer, sources: [any DispatchSourceProtocol]) {
        self.watch = watch
        self.sources = sources.map { ($0, true) }  // sources are created suspended
    }

    /// Resumes or suspends, keeping resume/suspend balanced (an over-resume traps).
    func setEnabled(_ enabled: Bool) {
        for index in sources.indices {
            if enabled && sources[index].suspended {
                sources[index].source.resume()
                sources[index].suspended = false
            } else if !enabled && !sources[index].suspended {
                sources[index].source.suspend()
                sources[index].suspended = true
            }
        }
    }

    /// Cancels; a suspended source must be resumed before it is cancelled.
    func cancel() {
        for index in sources.indices {
            sources[index].source.cancel()
            if sources[index].suspended {
                sources[index].source.resume()
                sources[index].suspended = false
            }
        }
        sources.removeAll()
    }
}

/// A libdbus timeout as a repeating dispatch timer on the connection's queue.
final class TimeoutSource {
    let timeout: OpaquePointer
    var timer: (any DispatchSourceTimer)?

    init(timeout: OpaquePointer) { self.timeout = timeout }

    func cancel() {
        timer?.cancel()
        timer = nil
    }
}

// libdbus's DBusWatchFlags.
private let watchReadable: UInt32 = 1
private let watchWritable: UInt32 = 2

extension BusConnection {
    /// Opens the raw connection; runs on the new connection's queue (it blocks for `Hello`).
    static func openRaw(_ address: BusAddress) throws -> OpaquePointer {
        var error = CBlueZ.DBusError()
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

    /// Hooks libdbus into dispatch: watches, timeouts, dispatch status and the message filter.
    func installMainLoop() {
        assertOnQueue()
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            raw,
            { watch, data in
                guard let watch, let data else { return 0 }
                return Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().addWatch(watch) ? 1 : 0
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().toggleWatch(watch)
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
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<BusConnection>.fromOpaque(data).takeUnretainedValue().toggleTimeout(timeout)
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

    /// Dispatches later on the queue; libdbus may call this with its lock held, so never dispatch inline.
    func scheduleDispatch() {
        guard !dispatchScheduled else { return }
        dispatchScheduled = true
        queue.async {
            self.dispatchScheduled = false
            self.dispatchAll()
        }
    }

    func dispatchAll() {
        assertOnQueue()
        guard isOpen else { return }
        while isOpen && dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func addWatch(_ watch: OpaquePointer) -> Bool {
        let fd = dbus_watch_get_unix_fd(watch)
        guard fd >= 0 else { return false }
        let flags = dbus_watch_get_flags(watch)
        let handle = QueueConfinedPointer(pointer: watch)
        var sources: [any DispatchSourceProtocol] = []
        if flags & watchReadable != 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in self?.handleWatch(handle.pointer, flags: watchReadable) }
            sources.append(source)
        }
        if flags & watchWritable != 0 {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { [weak self] in self?.handleWatch(handle.pointer, flags: watchWritable) }
            sources.append(source)
        }
        let entry = WatchSource(watch: watch, sources: sources)
        watches[watch] = entry
        entry.setEnabled(dbus_watch_get_enabled(watch) != 0)
        return true
    }

    private func removeWatch(_ watch: OpaquePointer) {
        watches.removeValue(forKey: watch)?.cancel()
    }

    private func toggleWatch(_ watch: OpaquePointer) {
        watches[watch]?.setEnabled(dbus_watch_get_enabled(watch) != 0)
    }

    private func handleWatch(_ watch: OpaquePointer, flags: UInt32) {
        assertOnQueue()
        // The watch may have been removed by an earlier handler in this turn: only touch live ones.
        guard isOpen, watches[watch] != nil else { return }
        _ = dbus_watch_handle(watch, flags)
        dispatchAll()
    }

    private func addTimeout(_ timeout: OpaquePointer) {
        let entry = TimeoutSource(timeout: timeout)
        timeouts[timeout] = entry
        arm(entry)
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    private func toggleTimeout(_ timeout: OpaquePointer) {
        guard let entry = timeouts[timeout] else { return }
        entry.cancel()
        arm(entry)
    }

    private func arm(_ entry: TimeoutSource) {
        guard dbus_timeout_get_enabled(entry.timeout) != 0 else { return }
        let interval = Int(max(1, dbus_timeout_get_interval(entry.timeout)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        let handle = QueueConfinedPointer(pointer: entry.timeout)
        timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval))
        timer.setEventHandler { [weak self] in
            guard let self, self.isOpen, self.timeouts[handle.pointer] != nil else { return }
            _ = dbus_timeout_handle(handle.pointer)
            self.dispatchAll()
        }
        entry.timer = timer
        timer.resume()
    }

    /// Every incoming message passes here, on the queue, during `dbus_connection_dispatch`.
    private func filter(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        let message: Message
        do {
            message = try MessageCodec.decode(rawMessage)
        } catch {
            if dbus_message_get_type(rawMessage) == MessageCodec.messageTypeMethodCall,
                dbus_message_get_no_reply(rawMessage) == 0,
                let reply = dbus_message_new_error(
                    rawMessage, ErrorName.invalidArgs.rawValue, "the message body could not be read")
            {
                dbus_connection_send(raw, reply, nil)
                dbus_message_unref(reply)
            }
            return DBUS_HANDLER_RESULT_HANDLED
        }
        switch message.kind {
        case .methodCall:
            objectServer.dispatch(message)
            return DBUS_HANDLER_RESULT_HANDLED
        case .signal:
            deliverSignal(message)
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodReturn, .error:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }
}
