import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

/// Rule 11: another app's keyboard (`isLocal == false`) still reserves space unless `isLocalOnly`; never ignore
/// `willHide`.
@Suite("Rule 11: local and remote keyboards")
struct LayoutRule11LocalityTests {
    @Test("another app's keyboard still covers us")
    func remoteReserves() {
        var state = LayoutFixtures.state()
        state.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, isLocal: false))
        #expect(state.reservedInset == 335)
    }

    @Test("isLocalOnly: another app's keyboard reserves nothing, ours does")
    func localOnly() {
        let options = LayoutOptions(isLocalOnly: true)
        var remote = LayoutFixtures.state(options: options)
        remote.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, isLocal: false))
        #expect(remote.mode == .docked)
        #expect(remote.overlap == 0)
        #expect(remote.reservedInset == 0)
        #expect(remote.guideFrame == Rect(x: 0, y: 1346, width: 1024, height: 20))

        var local = LayoutFixtures.state(options: options)
        local.consume(LayoutFixtures.show(LayoutFixtures.dockedKeyboard, isLocal: true))
        #expect(local.reservedInset == 335)
    }

    @Test("a remote willHide is never ignored, even with isLocalOnly", arguments: [false, true])
    func remoteHide(isLocalOnly: Bool) throws {
        var state = LayoutFixtures.scenario1(options: LayoutOptions(isLocalOnly: isLocalOnly))
        let animationResult = state.consume(LayoutFixtures.hide(isLocal: false))
        let animation = try #require(animationResult)
        #expect(state.lastDisposition == .applied)
        #expect(state.mode == .hidden)
        #expect(animation.to == 0)
    }
}
