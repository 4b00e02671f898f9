import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Properties over thousands of random screens, windows, safe areas, options and event sequences (seeded, so a
/// failure repeats: the message names the seed).
@Suite("Layout core properties")
struct LayoutPropertyTests {
    static let caseCount = 3000

    /// One random world: geometry, options, hardware keyboard, and a sequence of inputs.
    struct World {
        var geometry: WindowGeometry
        var options: LayoutOptions
        var hardware: Bool
        var events: [KeyboardEvent]
    }

    static func world(seed: UInt64) -> World {
        var random = SeededRandom(seed: seed)
        let screen = Size(width: random.points(320...2800), height: random.points(320...2800))
        let window: Rect
        if random.chance(0.3) {
            window = Rect(origin: .zero, size: screen)
        } else {
            window = Rect(
                x: random.points(-200...screen.width),
                y: random.points(-200...screen.height),
                width: random.points(0...screen.width),
                height: random.points(0...screen.height)
            )
        }
        let geometry = WindowGeometry(
            screen: screen,
            screenID: .main,
            windowFrame: window,
            safeArea: Insets(bottom: random.chance(0.3) ? 0 : random.points(0...50))
        )
        let options = LayoutOptions(
            followsUndockedKeyboard: random.chance(0.5),
            usesBottomSafeArea: random.chance(0.5),
            keyboardDismissPadding: random.points(-50...50),
            accessoryBarMax: random.chance(0.5) ? 80 : random.points(0...120),
            reserveAccessoryBar: random.chance(0.3),
            isLocalOnly: random.chance(0.3),
            guardianMargin: random.points(0...20)
        )
        let events = (0..<Int.random(in: 1...6, using: &random)).map { _ in event(&random, screen: screen) }
        return World(geometry: geometry, options: options, hardware: random.chance(0.5), events: events)
    }

    static func event(_ random: inout SeededRandom, screen: Size) -> KeyboardEvent {
        let width = screen.width
        let height = screen.height
        let frame: Rect
        switch Int.random(in: 0..<6, using: &random) {
        case 0:  // docked
            let keyboardHeight = random.points(0...600)
            frame = Rect(x: 0, y: height - keyboardHeight, width: width, height: keyboardHeight)
        case 1:  // a bar: a full-height frame mostly below the screen
            frame = Rect(x: 0, y: height - random.points(0...100), width: width, height: 355)
        case 2:  // floating, on screen
            frame = Rect(
                x: random.points(0...width), y: random.points(0...height),
                width: random.points(0...400), height: random.points(0...300)
            )
        case 3:  // anywhere
            frame = Rect(
                x: random.points(-500...(width + 500)), y: random.points(-500...(height + 500)),
                width: random.points(0...width), height: random.points(0...700)
            )
        case 4:
            frame = .zero
        default:  // just below the screen
            frame = Rect(x: 0, y: height, width: width, height: random.points(0...400))
        }
        let kinds = KeyboardEventKind.allCases
        return KeyboardEvent(
            kind: kinds[Int.random(in: 0..<kinds.count, using: &random)],
            endFrame: frame,
            duration: random.chance(0.3) ? 0 : random.points(0...1),
            curve: AnimationCurve(rawValue: Int.random(in: 0...9, using: &random)),
            isLocal: random.chance(0.7),
            screen: random.chance(0.9) ? .main : "external"
        )
    }

    /// The height two rectangles share, computed here from their edges (not with `Rect.intersection`).
    static func sharedHeight(_ a: Rect, _ b: Rect) -> Double {
        let width = min(a.minX + a.width, b.minX + b.width) - max(a.minX, b.minX)
        let height = min(a.minY + a.height, b.minY + b.height) - max(a.minY, b.minY)
        return width > 0 && height > 0 ? height : 0
    }

    static func state(_ world: World) -> KeyboardLayoutState {
        var state = KeyboardLayoutState(
            geometry: world.geometry, options: world.options, hardwareKeyboardAttached: world.hardware)
        for event in world.events { state.consume(event) }
        return state
    }

    @Test("the inset is never negative and never larger than the window's height")
    func bounds() {
        for seed in 0..<UInt64(Self.caseCount) {
            let world = Self.world(seed: seed)
            let state = Self.state(world)
            #expect(state.reservedInset >= 0, "seed \(seed)")
            #expect(state.reservedInset <= world.geometry.windowFrame.height, "seed \(seed)")
            #expect(state.overlap <= world.geometry.windowFrame.height, "seed \(seed)")
        }
    }

    @Test("zero when the keyboard misses the window")
    func missesWindow() {
        var checked = 0
        for seed in 0..<UInt64(Self.caseCount) {
            let world = Self.world(seed: seed)
            let state = Self.state(world)
            guard let keyboard = state.keyboard,
                Self.sharedHeight(keyboard.endFrame, world.geometry.windowFrame) == 0
            else { continue }
            checked += 1
            #expect(state.overlap == 0, "seed \(seed)")
            #expect(state.reservedInset == 0, "seed \(seed)")
        }
        #expect(checked > 300)  // the generator does produce misses
    }

    @Test("zero for a bar-only frame (overlap <= accessoryBarMax) with a hardware keyboard")
    func barWithHardwareKeyboard() {
        var checked = 0
        for seed in 0..<UInt64(Self.caseCount) {
            var world = Self.world(seed: seed)
            world.hardware = true
            world.options.reserveAccessoryBar = false
            let state = Self.state(world)
            guard let keyboard = state.keyboard,
                Self.sharedHeight(keyboard.endFrame, world.geometry.windowFrame) <= world.options.accessoryBarMax
            else { continue }
            checked += 1
            #expect(state.reservedInset == 0, "seed \(seed)")
        }
        #expect(checked > 300)
    }

    @Test("every animation starts at the previous value and ends at the target; no change, no animation")
    func animationContinuity() {
        for seed in 0..<UInt64(Self.caseCount) {
            let world = Self.world(seed: seed)
            var random = SeededRandom(seed: seed ^ 0xA5A5)
            var state = KeyboardLayoutState(
                geometry: world.geometry, options: world.options, hardwareKeyboardAttached: world.hardware)
            for event in world.events {
                // Between events, sometimes toggle the hardware keyboard or move the window.
                var inputs: [(inout KeyboardLayoutState) -> InsetAnimation?] = [{ $0.consume(event) }]
                if random.chance(0.3) { inputs.append { $0.setHardwareKeyboardAttached(!$0.hardwareKeyboardAttached) } }
                if random.chance(0.2) {
                    let moved = world.geometry.windowFrame.offsetBy(dx: 0, dy: random.points(-300...300))
                    inputs.append { $0.setWindowFrame(moved) }
                }
                for input in inputs {
                    let previous = state.reservedInset
                    let animation = input(&state)
                    #expect(animation == state.animation, "seed \(seed)")
                    guard let animation else {
                        #expect(state.reservedInset == previous, "seed \(seed)")
                        continue
                    }
                    #expect(animation.from == previous, "seed \(seed)")
                    #expect(animation.to == state.reservedInset, "seed \(seed)")
                    #expect(animation.from != animation.to, "seed \(seed)")
                    #expect(state.inset(at: animation.duration) == state.reservedInset, "seed \(seed)")
                    if !animation.isImmediate {
                        #expect(state.inset(at: 0) == previous, "seed \(seed)")
                        let middle = state.inset(at: animation.duration * 0.37)
                        #expect(middle >= min(animation.from, animation.to) - 1e-9, "seed \(seed)")
                        #expect(middle <= max(animation.from, animation.to) + 1e-9, "seed \(seed)")
                    }
                }
            }
        }
    }

    @Test("the answer depends only on the last applied event, not on the history before it")
    func historyFree() {
        for seed in 0..<UInt64(Self.caseCount) {
            let world = Self.world(seed: seed)
            let state = Self.state(world)
            guard let last = state.keyboard else { continue }
            var fresh = KeyboardLayoutState(
                geometry: world.geometry, options: world.options, hardwareKeyboardAttached: world.hardware)
            fresh.consume(last)
            #expect(fresh.mode == state.mode, "seed \(seed)")
            #expect(fresh.reservedInset == state.reservedInset, "seed \(seed)")
            #expect(fresh.guideFrame == state.guideFrame, "seed \(seed)")
        }
    }
}
