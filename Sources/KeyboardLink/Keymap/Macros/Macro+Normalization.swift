extension Macro {
    /// The same macro in its canonical form, as decoders produce it.
    ///
    /// Presses of modifiers around a single tap become one chord (`press ctrl, c, release ctrl` is `ctrl+c`),
    /// neighbouring delays are added up (in steps of at most 10000 ms) and neighbouring texts joined. Playing the
    /// canonical form sends the same keys at the same times.
    package func normalized() -> Macro {
        Macro(trustedSteps: Self.mergeNeighbours(Self.foldChords(steps)))
    }

    private static func foldChords(_ steps: [MacroStep]) -> [MacroStep] {
        var result: [MacroStep] = []
        var index = 0
        while index < steps.count {
            if let (folded, length) = chord(in: steps, at: index) {
                result.append(folded)
                index += length
            } else {
                result.append(steps[index])
                index += 1
            }
        }
        return result
    }

    /// `press m1 ... press mk, tap x, release mk ... release m1` with distinct modifiers m: one chord.
    private static func chord(in steps: [MacroStep], at start: Int) -> (MacroStep, Int)? {
        var modifiers: [HIDUsage] = []
        var index = start
        while index < steps.count, case .press(let usage) = steps[index], usage.isModifier,
            !modifiers.contains(usage)
        {
            modifiers.append(usage)
            index += 1
        }
        guard !modifiers.isEmpty, index < steps.count, case .tap(let tapped) = steps[index] else { return nil }
        index += 1
        for usage in modifiers.reversed() {
            guard index < steps.count, case .release(let released) = steps[index], released == usage else {
                return nil
            }
            index += 1
        }
        var set = tapped.modifiers
        for usage in modifiers {
            if let bit = usage.modifierBit { set.formUnion(bit) }
        }
        return (.tap(KeyPress(tapped.usage, modifiers: set)), index - start)
    }

    private static func mergeNeighbours(_ steps: [MacroStep]) -> [MacroStep] {
        var result: [MacroStep] = []
        for step in steps {
            switch (result.last, step) {
            case (.delay(let previous)?, .delay(let next)):
                let total = previous + next
                result[result.count - 1] = .delay(milliseconds: min(total, maximumDelay))
                if total > maximumDelay { result.append(.delay(milliseconds: total - maximumDelay)) }
            case (.text(let previous)?, .text(let next))
            where previous.utf8.count + next.utf8.count <= maximumTextLength:
                result[result.count - 1] = .text(previous + next)
            default:
                result.append(step)
            }
        }
        return result
    }
}
