import Glibc
import KeyboardLinkDrivers
import Testing

@testable import KeyboardLinkService

/// The error a push or pull answers when kblinkd cannot open a keyboard's VIA node.
@Suite struct VIAOpenFailureTests {
    @Test("A push or pull refused over the node says why, not to check permissions")
    func refusalMessage() {
        let refusal = HIDRawRefusal.substituted(
            path: "/dev/hidraw4", expected: .init(major: 247, minor: 4), found: "character device 1:3")
        let refused = VIADriverLinks.openFailure(alias: "VGN 98Pro", cause: refusal).message
        #expect(refused.contains("/dev/hidraw4") && refused.contains("247:4") && refused.contains("1:3"), "\(refused)")
        #expect(!refused.contains("permissions"), "\(refused)")
        let denied = VIADriverLinks.openFailure(
            alias: "VGN 98Pro", cause: VIATransportError.systemCall(name: "open", path: "/dev/hidraw4", errno: EACCES)
        ).message
        #expect(denied.contains("permissions"), "\(denied)")
    }
}
