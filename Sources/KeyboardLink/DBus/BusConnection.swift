internal import CDBus
import Dispatch
import Synchronization

/// A private connection to a message bus, over libdbus.
///
/// Every libdbus call for the connection runs on its own thread (``ConnectionLoop``: a `poll` loop over libdbus's
/// watches and timeouts): public methods hand their work to it, and nothing ever blocks a Swift concurrency thread.
/// Call ``close()`` when done.
public final class BusConnection: @unchecked Sendable {
    // Why @unchecked Sendable is safe: every stored `var` below, and every use of `raw`, happens on the loop
    // thread (each entry point hops there with `loop.async`; libdbus's callbacks come from calls made there).
    // `uniqueName`, `address` and `loop` are immutable; `ids` is a Mutex and `interactiveAuthorization` an Atomic;
    // `headerStrings` and `messageTemplates` are classes used only on the loop thread, like the vars.

    /// The thread all libdbus calls for this connection run on.
    let loop: ConnectionLoop
    let raw: OpaquePointer
    /// This connection's unique name on the bus, such as `:1.42`.
    public let uniqueName: BusName
    /// Where the connection goes.
    public let address: BusAddress

    private let ids = Mutex<UInt64>(0)
    private let interactiveAuthorization = Atomic<Bool>(false)

    /// Whether the method calls this connection sends by their parts (``call(destination:path:interface:member:_:timeout:)``,
    /// and so every ``DBusProxy`` call and property write) carry `ALLOW_INTERACTIVE_AUTHORIZATION`: the caller will
    /// wait while the service asks the person for a password through polkit. Off by default; a command-line client
    /// turns it on when a person is at its terminal (as sd-bus's `sd_bus_set_allow_interactive_authorization`).
    public var allowsInteractiveAuthorization: Bool {
        get { interactiveAuthorization.load(ordering: .relaxed) }
        set { interactiveAuthorization.store(newValue, ordering: .relaxed) }
    }

    // Loop-confined state.
    var isOpen = true
    /// Method calls waiting for their replies, by serial.
    var pendingCalls: [UInt32: PendingCall] = [:]
    /// When each pending call gives up (entries of answered calls linger until dropped; see CallDeadlines).
    var callDeadlines = CallDeadlines()
    var subscriptions: [UInt64: SignalSubscriber] = [:]
    /// Owners of well-known names that subscriptions filter on, with the serial of the message that told us.
    var nameOwners: [BusName: (owner: BusName?, serial: UInt32)] = [:]
    var ownerTrackers: [BusName: OwnerTrackingHolder] = [:]
    /// Encoded `GetManagedObjects` replies by manager path, dropped on any change (BusConnection+ReplyTemplates).
    var replyTemplates: [ObjectPath: ReplyTemplate] = [:]
    lazy var objectServer = ObjectServer(connection: self)
    /// What callers may send (CallBudget.swift).
    var callLimits = CallLimits.none
    /// Calls answered later, per caller, while ``callLimits`` bounds them.
    var callsInFlight: [BusName: Int] = [:]
    /// Header names of the last received message, reused by the next (loop-confined, like the vars above).
    let headerStrings = HeaderStringCache()
    /// Headers of method calls and returns built once and copied for each message (loop-confined).
    let messageTemplates = MessageTemplateCache()
    #if DEBUG
        /// Calls answered by methods declared with Swift types, which read their arguments straight from the libdbus
        /// message (``MethodBody``); read on the loop, by tests (debug builds only).
        var typedCallsAnswered = 0
    #endif

    init(raw: OpaquePointer, loop: ConnectionLoop, address: BusAddress) {
        self.raw = raw
        self.loop = loop
        self.address = address
        if let name = dbus_bus_get_unique_name(raw) {
            self.uniqueName = BusName(unchecked: String(cString: name))
        } else {
            self.uniqueName = ":0.0"
        }
    }

    deinit {
        // Nothing may retain `self` here. No job of ours is pending (jobs hold the connection strongly) and no call
        // waits (its frame would hold it too). Detach libdbus from us first, so that closing calls none of our
        // callbacks, then close on the loop thread, which owns the watch tables.
        if isOpen {
            let handle = QueueConfinedPointer(pointer: raw)
            let loop = self.loop
            loop.sync {
                dbus_connection_set_watch_functions(handle.pointer, nil, nil, nil, nil, nil)
                dbus_connection_set_timeout_functions(handle.pointer, nil, nil, nil, nil, nil)
                dbus_connection_set_dispatch_status_function(handle.pointer, nil, nil, nil)
                loop.watches.removeAll()
                loop.timeouts.removeAll()
                dbus_connection_close(handle.pointer)
                dbus_connection_unref(handle.pointer)
            }
            for (_, subscriber) in subscriptions { subscriber.continuation.finish() }
        }
        loop.stop()
    }

    func nextID() -> UInt64 {
        ids.withLock { value in
            value += 1
            return value
        }
    }

    /// Opens a private connection and registers it on the bus (`Hello`).
    ///
    /// The blocking parts of opening run on the connection's own thread, never on a Swift concurrency thread.
    /// - Throws: ``DBusError`` when the bus cannot be reached, with what to check.
    public static func connect(to address: BusAddress, label: String = "kblink.dbus") async throws -> BusConnection {
        let loop = ConnectionLoop(name: label)
        return try await withCheckedThrowingContinuation { continuation in
            loop.async {
                do {
                    let raw = try openRaw(address)
                    let connection = BusConnection(raw: raw, loop: loop, address: address)
                    connection.installMainLoop()
                    continuation.resume(returning: connection)
                } catch {
                    loop.stop()
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Whether the connection is still open and connected.
    public var isConnected: Bool {
        loop.sync { self.isOpen && dbus_connection_get_is_connected(self.raw) != 0 }
    }

    /// Closes the connection: pending calls fail with `Disconnected`, signal streams finish, exported objects go.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.async {
                if self.isOpen { self.shutDown(reason: "the connection was closed") }
                continuation.resume()
            }
        }
    }

    /// The connection's own thread as a task executor.
    ///
    /// A task that makes many calls one after another can run on it, with
    /// `withTaskExecutorPreference(connection.taskExecutor) { ... }`: each call is then sent and its reply resumed
    /// on the thread that does the I/O, without a thread switch. Keep such tasks short and never block in them:
    /// they hold up every other message of the connection.
    public var taskExecutor: any TaskExecutor { loop }

    /// The number of method calls still waiting for a reply (for leak checks).
    public var pendingCallCount: Int {
        get async { await onQueue { self.pendingCalls.count } }
    }

    /// Runs `body` on the connection's loop thread.
    func onQueue<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.async { continuation.resume(returning: body()) }
        }
    }

    /// Runs `body` on the loop: at once when already there, otherwise after a hop.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        if loop.isCurrent { return try body() }
        let result: Result<T, any Error> = await onQueue { Result { try body() } }
        return try result.get()
    }

    func assertOnQueue() {
        assert(loop.isCurrent || loop.hasStopped, "connection state used off the connection's loop thread")
    }
}

// MARK: - Calls

extension BusConnection {
    /// The default time to wait for a reply.
    public static let defaultTimeout: Duration = .seconds(25)

    /// Sends a method call and waits for its reply.
    ///
    /// Cancelling the task forgets the pending call (a reply that still comes is dropped) and throws
    /// `CancellationError`.
    /// - Returns: the method-return message.
    /// - Throws: ``DBusError`` with the peer's error name, or `NoReply` after `timeout`.
    @discardableResult
    public func call(_ message: Message, timeout: Duration = BusConnection.defaultTimeout) async throws -> Message {
        precondition(message.kind == .methodCall, "call(_:) sends method calls")
        let progress = CallProgress(id: nextID())
        return try await withTaskCancellationHandler {
            // Unchecked: each continuation is resumed exactly once, by whoever removes its call from `pendingCalls`
            // (reply, cancellation, shutdown) or by `startCall` when the call never gets there; all on the loop.
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Message, Error>) in
                if loop.isCurrent {
                    // Already on the connection's thread (a task preferring `taskExecutor`): send at once.
                    self.startCall(progress, message: message, timeout: timeout, continuation: continuation)
                } else {
                    loop.async {
                        self.startCall(progress, message: message, timeout: timeout, continuation: continuation)
                    }
                }
            }
        } onCancel: {
            loop.async { self.cancelCall(progress) }
        }
    }

    /// Calls a method by its parts.
    @discardableResult
    public func call(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName,
        _ arguments: [DBusValue] = [], timeout: Duration = BusConnection.defaultTimeout
    ) async throws -> Message {
        var message = Message.methodCall(
            destination: destination, path: path, interface: interface, member: member, body: arguments)
        message.allowsInteractiveAuthorization = allowsInteractiveAuthorization
        return try await call(message, timeout: timeout)
    }

    /// Sends a message that expects no reply (a signal, or a call flagged no-reply).
    /// - Throws: ``DBusError`` when the message cannot be built or the connection is closed.
    public func send(_ message: Message) async throws {
        let result: Result<Void, DBusError> = await onQueue { self.sendNow(message) }
        try result.get()
    }

    /// Sends from the loop thread; returns the outcome instead of throwing so it can cross the hop.
    func sendNow(_ message: Message, checked: Bool = true) -> Result<Void, DBusError> {
        guard isOpen else { return .failure(.disconnected("the connection is closed")) }
        assertOnQueue()
        do {
            let rawMessage = try MessageCodec.makeMessage(message, checked: checked, templates: messageTemplates)
            defer { dbus_message_unref(rawMessage) }
            guard dbus_connection_send(raw, rawMessage, nil) != 0 else {
                return .failure(.failed("out of memory sending a message"))
            }
            return .success(())
        } catch let error as DBusError {
            return .failure(error)
        } catch {
            return .failure(.failed("\(error)"))
        }
    }

    private func startCall(
        _ progress: CallProgress, message: Message, timeout: Duration,
        continuation: UnsafeContinuation<Message, Error>
    ) {
        if case .canceledBeforeSending = progress.state {
            progress.state = .finished
            continuation.resume(throwing: CancellationError())
            return
        }
        // Every early return below ends the call; a sent call becomes `.pending` at the end.
        progress.state = .finished
        guard isOpen, dbus_connection_get_is_connected(raw) != 0 else {
            continuation.resume(throwing: DBusError.disconnected("not connected to the bus"))
            return
        }
        let rawMessage: OpaquePointer
        do {
            rawMessage = try MessageCodec.makeMessage(message, templates: messageTemplates)
        } catch {
            continuation.resume(throwing: error)
            return
        }
        defer { dbus_message_unref(rawMessage) }
        // Replies are matched here by serial (the filter), not with libdbus pending calls: those cost a pending
        // call, a timeout object, a data slot and several lock round trips per call, and a scan of every timeout.
        var serial: UInt32 = 0
        guard dbus_connection_send(raw, rawMessage, &serial) != 0, serial != 0 else {
            continuation.resume(throwing: DBusError.disconnected("not connected to the bus"))
            return
        }
        progress.state = .pending(serial: serial)
        pendingCalls[serial] = PendingCall(progress: progress, continuation: continuation)
        callDeadlines.insert(
            .init(deadline: ContinuousClock.now.advanced(by: timeout), serial: serial, id: progress.id))
    }

    /// Resumes the call that `reply` answers; false when no call of ours waits for it.
    func completeCall(with reply: Message) -> Bool {
        assertOnQueue()
        guard let serial = reply.replySerial, let call = pendingCalls.removeValue(forKey: serial) else { return false }
        call.progress.state = .finished
        forgetAnsweredDeadlines()
        if let error = reply.carriedError {
            call.continuation.resume(throwing: error)
        } else {
            call.continuation.resume(returning: reply)
        }
        return true
    }

    /// Fails every call whose deadline has passed with `NoReply`, as libdbus's own pending calls would.
    func expireCalls(asOf now: ContinuousClock.Instant) {
        assertOnQueue()
        while let entry = callDeadlines.popExpired(asOf: now) {
            guard let call = pendingCalls[entry.serial], call.progress.id == entry.id else { continue }
            pendingCalls[entry.serial] = nil
            call.progress.state = .finished
            call.continuation.resume(
                throwing: DBusError.noReply(
                    "no reply in time: the peer did not answer, the bus policy blocked the answer, or the peer is stuck"
                ))
        }
        forgetAnsweredDeadlines()
    }

    /// Fails every pending call (the connection closed or was lost).
    func failPendingCalls(_ error: DBusError) {
        let calls = pendingCalls
        pendingCalls.removeAll()
        callDeadlines.removeAll()
        for (_, call) in calls {
            call.progress.state = .finished
            call.continuation.resume(throwing: error)
        }
    }

    private func forgetAnsweredDeadlines() {
        callDeadlines.dropStaleTop(liveCount: pendingCalls.count) { entry in
            pendingCalls[entry.serial]?.progress.id == entry.id
        }
    }

    private func cancelCall(_ progress: CallProgress) {
        assertOnQueue()
        switch progress.state {
        case .notSent:
            // The job that sends it is still queued: it will throw instead.
            progress.state = .canceledBeforeSending
        case .pending(let serial):
            guard let call = pendingCalls.removeValue(forKey: serial) else { return }
            progress.state = .finished
            forgetAnsweredDeadlines()
            call.continuation.resume(throwing: CancellationError())
        case .canceledBeforeSending, .finished:
            break
        }
    }

    /// Calls a method of the message bus itself.
    func callBus(_ member: MemberName, _ arguments: [DBusValue]) async throws -> Message {
        try await call(
            destination: .messageBus, path: "/org/freedesktop/DBus", interface: .dbus, member: member, arguments)
    }
}

/// A method call waiting for its reply, filed under the serial it went out with.
struct PendingCall {
    let progress: CallProgress
    let continuation: UnsafeContinuation<Message, Error>
}

/// Where one method call is, shared by the caller's cancellation handler and the connection, so that a cancellation
/// finds its call whether it comes before the call is sent, while it waits, or after it ended.
final class CallProgress: @unchecked Sendable {
    // Why @unchecked Sendable is safe: `id` is immutable; `state` is read and written only on the connection's loop
    // thread (by `startCall`, the completions and `cancelCall`, which run there one at a time).

    enum State {
        case notSent
        case canceledBeforeSending
        case pending(serial: UInt32)
        case finished
    }

    /// Unique per connection; tells a call's deadline from a later call's that went out with the same serial.
    let id: UInt64
    var state = State.notSent

    init(id: UInt64) { self.id = id }
}

// MARK: - Names

extension BusConnection {
    /// How `RequestName` answered.
    public enum NameRequestReply: UInt32, Sendable {
        case primaryOwner = 1, inQueue = 2, exists = 3, alreadyOwner = 4
    }

    /// Requests a well-known name (`org.freedesktop.DBus.RequestName`) without queueing.
    /// - Throws: ``DBusError`` (`AccessDenied` when the bus policy forbids it).
    @discardableResult
    public func requestName(_ name: BusName, allowReplacement: Bool = false, replaceExisting: Bool = false)
        async throws -> NameRequestReply
    {
        var flags: UInt32 = 0x4  // DBUS_NAME_FLAG_DO_NOT_QUEUE
        if allowReplacement { flags |= 0x1 }
        if replaceExisting { flags |= 0x2 }
        let reply = try await callBus("RequestName", [.string(name.rawValue), .uint32(flags)])
        let code = try reply.decode(UInt32.self)
        return NameRequestReply(rawValue: code) ?? .exists
    }

    /// Releases a well-known name.
    public func releaseName(_ name: BusName) async throws {
        _ = try await callBus("ReleaseName", [.string(name.rawValue)])
    }

    /// The unique name that owns `name` now, or nil when nobody does.
    public func nameOwner(of name: BusName) async throws -> BusName? {
        do {
            let reply = try await callBus("GetNameOwner", [.string(name.rawValue)])
            return try BusName(reply.decode(String.self))
        } catch let error as DBusError where error.name == .nameHasNoOwner {
            return nil
        }
    }
}

// MARK: - Shutdown

extension BusConnection {
    func shutDown(reason: String) {
        guard isOpen else { return }
        isOpen = false
        objectServer.removeAll()
        failPendingCalls(.disconnected(reason))
        for (_, subscriber) in subscriptions {
            subscriber.continuation.finish()
        }
        subscriptions.removeAll()
        dbus_connection_close(raw)
        // Closing removes every watch and timeout through our callbacks; unset them before the last unref.
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        loop.watches.removeAll()
        loop.timeouts.removeAll()
        dbus_connection_unref(raw)
        loop.stop()
    }
}
