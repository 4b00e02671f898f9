import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension KBlinkClient {
    /// The keyboard that `text` (an address, or the start of a known keyboard's name) designates for pairing.
    /// An address kblinkd does not know yet is fine: the daemon looks for it.
    /// - Throws: ``KBlinkClient/Failure`` `notFound` or `ambiguous` for a name.
    public func pairingTarget(_ text: String) async throws -> PairingTarget {
        let known = try await keyboards()
        if let address = BluetoothAddress(validating: text) {
            let name = known.first { BluetoothAddress(validating: $0.address) == address }?.alias
            return PairingTarget(address: address, name: name ?? address.description)
        }
        let keyboard: KeyboardInfo
        do {
            keyboard = try Self.match(text, in: known)
        } catch Failure.notFound {
            throw Failure.notFound(
                "no keyboard called \"\(text)\" is known: put it in pairing mode and find it with 'kblink scan', or give its address"
            )
        }
        guard let address = BluetoothAddress(validating: keyboard.address) else {
            throw Failure.notFound("kblinkd gave \(keyboard.alias) an invalid address \(keyboard.address)")
        }
        return PairingTarget(address: address, name: keyboard.alias)
    }

    /// Calls `Pair` and waits for the end (no prompts): returns the keyboard's object path.
    /// - Throws: ``KBlinkError`` with kblinkd's error, ``DBusError`` with the bus's.
    public func pair(_ device: String, timeout: Duration = .seconds(150)) async throws -> ObjectPath {
        try await manager.call(KBlinkContract.Manager.pair, device, timeout: timeout)
    }

    /// Calls `CancelPairing`; returns once the pairing has ended and been undone.
    /// - Throws: ``KBlinkError`` (`notFound` when no pairing of that device runs).
    public func cancelPairing(_ device: String) async throws {
        try await manager.call(KBlinkContract.Manager.cancelPairing, device, timeout: .seconds(30))
    }

    /// `ConfirmPairing`: answers the question kblinkd relayed during this connection's `Pair` (a numeric
    /// comparison, or a keyboard that pairs without a code).
    /// - Throws: ``KBlinkError`` (`notFound` when no question waits, `accessDenied` from another connection).
    public func confirmPairing(_ device: String, accept: Bool) async throws {
        try await manager.call(KBlinkContract.Manager.confirmPairing, device, accept)
    }

    /// The `PairingPrompt` and `PairingFinished` signals kblinkd sends this connection (they are unicast: only the
    /// `Pair` caller gets them).
    public func pairingSignals() async throws -> SignalStream {
        try await connection.subscribe(
            to: MatchRule(sender: KBlink.service, path: KBlink.managerPath, interface: KBlink.managerInterface))
    }

    /// Pairs `target` and streams what happens: its prompts in order, then exactly one `.ended`.
    ///
    /// The signals are subscribed before `Pair` is called, and the end waits for this pairing's
    /// `PairingFinished` (sent before the reply), so no prompt is reported after the end.
    /// - Parameter timeout: how long the `Pair` call may take; cancel earlier with ``cancelPairing(_:)``.
    /// - Throws: ``DBusError`` when the signals cannot be subscribed.
    public func pairing(_ target: PairingTarget, timeout: Duration) async throws -> AsyncStream<PairingEvent> {
        let signals = try await pairingSignals()
        let keyboard = target.keyboard
        let (inputs, input) = AsyncStream<PairingInput>.makeStream()
        let (events, output) = AsyncStream<PairingEvent>.makeStream()
        let forwarder = Task {
            for await message in signals {
                guard message.body.first == .objectPath(keyboard) else { continue }
                input.yield(.signal(message))
            }
        }
        let device = target.address.description
        let caller = Task {
            do {
                input.yield(.reply(.success(try await pair(device, timeout: timeout))))
            } catch {
                input.yield(.reply(.failure(error)))
            }
        }
        let consumer = Task {
            var reply: Result<ObjectPath, any Error>?
            var finished = false
            var grace: Task<Void, Never>?
            loop: for await item in inputs {
                switch item {
                case .signal(let message):
                    if let signal = KBlinkContract.Manager.pairingPromptSignal.body(of: message) {
                        output.yield(.prompt(signal.prompt))
                    } else if KBlinkContract.Manager.pairingFinishedSignal.body(of: message) != nil {
                        finished = true
                        if reply != nil { break loop }
                    }
                case .reply(let result):
                    reply = result
                    if finished { break loop }
                    if case .failure(let error) = result, !PairingResult.daemonSendsFinished(before: error) {
                        break loop
                    }
                    // The end signal left before the reply; give the forwarder a moment to hand it over.
                    grace = Task {
                        try? await Task.sleep(for: .seconds(2))
                        input.yield(.graceOver)
                    }
                case .graceOver:
                    break loop
                }
            }
            grace?.cancel()
            forwarder.cancel()
            let error: KBlinkError?
            switch reply {
            case .success?: error = nil
            case .failure(let failure)?: error = Self.pairingError(failure)
            case nil: error = KBlinkError.canceled("stopped waiting for the pairing")
            }
            output.yield(.ended(PairingResult(keyboard: keyboard, error: error)))
            output.finish()
        }
        output.onTermination = { _ in
            consumer.cancel()
            forwarder.cancel()
            caller.cancel()
        }
        return events
    }

    /// How a `Pair` call that threw ends the pairing: kblinkd's error as it is; the bus's (kblinkd did not answer)
    /// as `failed` with its message.
    private static func pairingError(_ error: any Error) -> KBlinkError {
        switch error {
        case let error as KBlinkError: error
        case let error as DBusError: KBlinkError.failed(error.message.isEmpty ? error.name.rawValue : error.message)
        case is CancellationError: KBlinkError.canceled("stopped waiting for the pairing")
        default: KBlinkError.failed("\(error)")
        }
    }
}

/// What the pairing stream is made of, before it becomes ``PairingEvent``s.
enum PairingInput: Sendable {
    case signal(Message)
    case reply(Result<ObjectPath, any Error>)
    case graceOver
}
