import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension PairingCoordinator {
    /// Raises `prompt` for `caller` alone (a unicast `PairingPrompt`) and waits for its `ConfirmPairing`: true on
    /// yes; false on no, when no answer comes within ``PairingOptions/questionTimeout``, or when the pairing ends.
    func ask(_ prompt: PairingPrompt, about address: BluetoothAddress, of caller: BusName) async -> Bool {
        dropQuestion(about: address)
        nextQuestionID += 1
        let id = nextQuestionID
        let raise = raise
        let timeout = options.questionTimeout
        return await withCheckedContinuation { continuation in
            // In place before the prompt leaves, so an answer can never arrive first.
            questions[address] = PairingQuestion(id: id, caller: caller, continuation: continuation)
            Task {
                await raise(.prompt(prompt, address: address, caller: caller))
            }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                await self?.expire(address, id: id)
            }
        }
    }

    /// `ConfirmPairing`: the `Pair` caller's answer to the question about `address`.
    /// - Throws: ``PairingFailure/noQuestion(_:)`` when nothing waits for an answer, and
    ///   ``PairingFailure/notThePairCaller(_:)`` when `sender` is not the connection that called `Pair`.
    package func answer(_ address: BluetoothAddress, accept: Bool, from sender: BusName?) throws(PairingFailure) {
        guard let question = questions[address] else { throw .noQuestion(address) }
        guard sender == question.caller else { throw .notThePairCaller(address) }
        questions[address] = nil
        question.continuation.resume(returning: accept)
    }

    /// Answers no to the question about `address`, if one waits.
    func dropQuestion(about address: BluetoothAddress) {
        questions.removeValue(forKey: address)?.continuation.resume(returning: false)
    }

    /// Answers no to every waiting question (BlueZ canceled or released the agent).
    func dropQuestions() {
        let waiting = questions
        questions = [:]
        for question in waiting.values { question.continuation.resume(returning: false) }
    }

    private func expire(_ address: BluetoothAddress, id: UInt64) {
        guard questions[address]?.id == id else { return }
        log(.notice, "nobody answered the pairing question about \(address) in time; refused")
        dropQuestion(about: address)
    }
}
