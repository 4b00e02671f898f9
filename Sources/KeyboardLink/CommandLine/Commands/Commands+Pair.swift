import Dispatch
import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Commands {
    static let pair = Command(
        name: "pair", summary: "Pair, trust and connect a keyboard (shows the passkey to type)",
        usageLine: "Usage: kblink pair DEVICE [--timeout S] [--json]",
        details: """
            DEVICE is an address (a keyboard kblinkd has not seen is looked for first: put it in pairing mode)
            or the start of a known keyboard's name. Shows the passkey or PIN to type on the keyboard, then Enter.
            A keyboard that shows a number itself asks "does the keyboard show 123456? [y/N]", and one that
            pairs without a code asks whether to allow it: answer y or n on standard input (no answer is no).
            Gives up after S seconds (default 120). Ctrl-C cancels: nothing is left paired or trusted.
            Exit 0 only when the keyboard ends paired, trusted and connected; 1 failure, 4 unknown device.
            JSON lines: one {event: "prompt", keyboard, address, kind, code, entered} per prompt, then
            {event: "finished", keyboard, address, ok, error, message, paired, trusted, connected}.
            """,
        options: ["--timeout"]
    ) { context in
        let device = try DeviceArgument.checked(context.arguments.expectPositionals(["DEVICE"])[0])
        let seconds = try context.arguments.seconds("--timeout", default: 120, range: 1...3600)
        let client = try await context.client()
        defer { Task { await client.close() } }
        let target = try await client.pairingTarget(device)
        return try await PairCommand(client: client, target: target, output: context.output, seconds: seconds).run()
    }
}

/// One run of `kblink pair`: follows the pairing, draws it, and cancels it on Ctrl-C or after the timeout.
struct PairCommand {
    /// What the loop reacts to.
    enum Input: Sendable {
        case event(PairingEvent)
        case tick
        case interrupt
        case timeout
        /// The person's answer to a question (nil: standard input ended).
        case answer(Bool?)
    }

    let client: KBlinkClient
    let target: PairingTarget
    let output: Output
    let seconds: Double

    var live: Bool { output.isTerminal && !output.json }

    func run() async throws -> ExitStatus {
        let (inputs, input) = AsyncStream<Input>.makeStream()
        // Ctrl-C must reach us (to cancel on the daemon), not end the process.
        if output.io.handlesSignals {
            signal(SIGINT, SIG_IGN)
            signal(SIGTERM, SIG_IGN)
        }
        let sources = (output.io.handlesSignals ? [SIGINT, SIGTERM] : []).map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { input.yield(.interrupt) }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }

        let events = try await client.pairing(target, timeout: .seconds(seconds + 30))
        let pump = Task {
            for await event in events { input.yield(.event(event)) }
        }
        let limit = seconds
        let timer = Task {
            try? await Task.sleep(for: .seconds(limit))
            input.yield(.timeout)
        }
        let ticker: Task<Void, Never>? =
            live
            ? Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(100))
                    input.yield(.tick)
                }
            } : nil
        defer {
            pump.cancel()
            timer.cancel()
            ticker?.cancel()
        }

        var view = PairingView(target: target)
        var frame = TerminalFrame()
        func draw() {
            guard live else { return }
            output.writeRaw(frame.render(view.terminalLines(color: output.color)))
        }
        if live {
            output.writeRaw("\u{1B}[?25l")
        } else if !output.json {
            let known = target.name != target.address.description
            output.line(
                "Pairing with \(known ? "\(target.name) (\(target.address))" : "\(target.address)")… Ctrl-C cancels.")
        }
        draw()

        var cancelCause: Input?
        var result: PairingResult?
        var asking = false
        loop: for await item in inputs {
            switch item {
            case .event(let event):
                let line = view.apply(event)
                if case .prompt(let prompt) = event {
                    if output.json {
                        output.json(prompt.json(for: target))
                    } else if !live, let line {
                        output.line(line)
                    }
                    if prompt.kind.isQuestion {
                        draw()
                        asking = true
                        ask(prompt.kind.question(code: prompt.code), input: input)
                        continue loop
                    }
                }
                if case .ended(let ended) = event {
                    result = ended
                    break loop
                }
                draw()
            case .tick:
                guard !asking else { continue loop }
                view.spinnerFrame += 1
                draw()
            case .answer(let answer):
                asking = false
                // The question and the typed answer are under the frame: the next frame replaces them.
                if live { frame.include(linesWrittenBelow: 1) }
                let client = client
                let device = target.address.description
                let accept = answer == true
                if !live && !output.json { output.line(accept ? "Confirmed." : "Refused.") }
                Task { try? await client.confirmPairing(device, accept: accept) }
                draw()
            case .interrupt, .timeout:
                guard cancelCause == nil else {
                    // A second Ctrl-C: stop waiting; kblinkd finishes the undo by itself.
                    break loop
                }
                cancelCause = item
                view.note = item.isTimeout ? "No pairing within \(Int(limit)) s: canceling…" : "Canceling…"
                if !live && !output.json { output.line(view.note ?? "") }
                draw()
                let client = client
                let device = target.address.description
                Task { try? await client.cancelPairing(device) }
            }
        }
        let status = try await finish(result, cancelCause: cancelCause, view: &view, frame: &frame)
        if live { output.writeRaw("\u{1B}[?25h") }
        return status
    }

    /// Asks a yes/no question on the terminal (or wherever standard output goes) and reads the answer from standard
    /// input on a thread of its own; only `y` or `yes` is yes.
    private func ask(_ question: String, input: AsyncStream<Input>.Continuation) {
        if !output.json { output.writeRaw(question + " [y/N] ") }
        DispatchQueue.global().async {
            guard let line = output.io.readLine() else {
                input.yield(.answer(nil))
                return
            }
            let word = line.split(whereSeparator: \.isWhitespace).first?.lowercased()
            input.yield(.answer(word == "y" || word == "yes"))
        }
    }

    /// Prints the end and picks the exit status.
    private func finish(
        _ result: PairingResult?, cancelCause: Input?, view: inout PairingView, frame: inout TerminalFrame
    )
        async throws -> ExitStatus
    {
        var result =
            result
            ?? PairingResult(
                keyboard: target.keyboard, error: KBlinkError.canceled("stopped waiting; kblinkd cancels the pairing"))
        if cancelCause?.isTimeout == true, result.error?.code == .canceled {
            result.error = KBlinkError.canceled(
                "no pairing within \(Int(seconds)) s, so it was canceled and nothing was kept: put the keyboard in pairing mode and try again (or give more time with --timeout)"
            )
        }
        var state = (paired: false, trusted: false, connected: false)
        var target = self.target
        if result.ok {
            // The daemon said ok; its keyboard object may show the last change a moment later.
            for attempt in 0..<30 {
                if let keyboard = try await client.keyboards().first(where: { $0.path == result.keyboard }) {
                    state = (keyboard.paired, keyboard.trusted, keyboard.connected)
                    target.name = keyboard.alias
                }
                if state.paired && state.trusted && state.connected { break }
                if attempt < 29 { try await Task.sleep(for: .milliseconds(100)) }
            }
            if !(state.paired && state.trusted && state.connected) {
                result.error = KBlinkError.failed(
                    "\(target.name) is not paired, trusted and connected after all (paired \(state.paired), trusted \(state.trusted), connected \(state.connected)); run 'kblink info \(target.address)'"
                )
            }
        }
        view.target = target
        view.apply(.ended(result))
        if live { output.writeRaw(frame.render(view.terminalLines(color: output.color))) }
        if output.json {
            output.json(
                result.json(for: target, paired: state.paired, trusted: state.trusted, connected: state.connected))
        } else if let error = result.error {
            if !live { output.error(error.message) }
        } else if !live {
            output.line("\(target.name) (\(target.address)) is paired, trusted and connected.")
        }
        guard let error = result.error else { return .success }
        switch error.code {
        case .notFound: return .notFound
        case .invalidArgs: return .usage
        default: return .failure
        }
    }
}

extension PairCommand.Input {
    var isTimeout: Bool {
        if case .timeout = self { return true }
        return false
    }
}
