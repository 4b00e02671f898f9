import Glibc
import KeyboardLinkSupport
import KeyboardLinkTestSupport
import Testing

@testable import KeyboardLinkKeymap

@Suite("Set-aside profiles are removed after 30 days")
struct SetAsideRetentionTests {
    static let now: Int64 = 1_800_000_000
    static let day: Int64 = 86_400

    @Test("names with a set-aside time, and names without")
    func names() {
        #expect(ProfileStore.setAsideTime(of: "AA_BB_CC_DD_EE_FF.json.corrupt-1700000000") == 1_700_000_000)
        #expect(ProfileStore.setAsideTime(of: "AA_BB_CC_DD_EE_FF.json.unusable-1700000000-3") == 1_700_000_000)
        for name in [
            "AA_BB_CC_DD_EE_FF.json", "AA_BB_CC_DD_EE_FF.json.corrupt-", "AA_BB_CC_DD_EE_FF.json.corrupt-12x",
            "AA_BB_CC_DD_EE_FF.json.corrupt-12-1", ".json.corrupt-12", "notes.txt", "x.json.corrupt-٣",
        ] {
            #expect(ProfileStore.setAsideTime(of: name) == nil, "\(name)")
        }
    }

    @Test("files set aside more than 30 days ago go; newer ones, profiles and other files stay")
    func removal() throws {
        let directory = try TemporaryDirectory()
        let old = Self.now - 31 * Self.day
        let recent = Self.now - 29 * Self.day
        let names = [
            "AA_BB_CC_DD_EE_FF.json", "AA_BB_CC_DD_EE_FF.json.corrupt-\(old)",
            "AA_BB_CC_DD_EE_FF.json.corrupt-\(old)-2", "AA_BB_CC_DD_EE_FF.json.unusable-\(old)",
            "AA_BB_CC_DD_EE_FF.json.unusable-\(recent)", "AA_BB_CC_DD_EE_FF.json.corrupt-junk", "notes.txt",
        ]
        for name in names { try directory.write("{}", to: name) }
        let store = ProfileStore(directory: directory.path, files: FileStore(), clock: { Self.now })
        let removed = store.removeExpiredSetAside()
        #expect(removed.count == 3)
        #expect(
            directory.list() == [
                "AA_BB_CC_DD_EE_FF.json", "AA_BB_CC_DD_EE_FF.json.corrupt-junk",
                "AA_BB_CC_DD_EE_FF.json.unusable-\(recent)", "notes.txt",
            ])
    }

    @Test("a missing directory removes nothing")
    func missingDirectory() {
        let store = ProfileStore(
            directory: "/tmp/kblink-no-such-directory-\(getpid())", files: FileStore(), clock: { Self.now })
        #expect(store.removeExpiredSetAside().isEmpty)
    }
}
