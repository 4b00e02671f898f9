import Testing

@testable import KeyboardLinkKeymap

/// The apply-on-connect settings of a stored profile, the `Push` option that sets them, and the log line of a
/// re-apply.
@Suite("Profile settings: apply on connect")
struct ProfileSettingsTests {
    static let address = (try? KeyboardAddress("AA:BB:CC:DD:EE:0F"))!

    /// A profile as kblink wrote it before apply on connect existed (no `baseOnDevice`, no `applyOnConnect`).
    static let oldProfile = """
        {
          "address" : "AA:BB:CC:DD:EE:0F",
          "base" : { "layers" : [ { "A" : "KC_A" } ], "macros" : { } },
          "draft" : { "currentZone" : "standard", "cursor" : 0, "operations" : [ ] },
          "layout" : "vgn-98pro",
          "schemaVersion" : 1
        }
        """

    @Test("a profile written before the settings existed loads with both off")
    func oldProfileLoads() throws {
        let profile = try StoredProfile(json: Array(Self.oldProfile.utf8))
        #expect(profile.settings == ProfileSettings(baseOnDevice: false, applyOnConnect: false))
        #expect(!profile.settings.reappliesOnConnect)
    }

    @Test("settings off are not written, so unchanged profiles stay byte for byte what they were")
    func offIsOmitted() throws {
        let profile = try StoredProfile(json: Array(Self.oldProfile.utf8))
        let text = String(decoding: profile.json(), as: UTF8.self)
        #expect(!text.contains("applyOnConnect"))
        #expect(!text.contains("baseOnDevice"))
    }

    @Test("settings on round-trip through the stored JSON", arguments: [(true, true), (true, false), (false, true)])
    func roundTrip(baseOnDevice: Bool, applyOnConnect: Bool) throws {
        var profile = try StoredProfile(json: Array(Self.oldProfile.utf8))
        profile.settings = ProfileSettings(baseOnDevice: baseOnDevice, applyOnConnect: applyOnConnect)
        let text = String(decoding: profile.json(), as: UTF8.self)
        #expect(text.contains("\"applyOnConnect\" : true") == applyOnConnect)
        #expect(text.contains("\"baseOnDevice\" : true") == baseOnDevice)
        let back = try StoredProfile(json: profile.json())
        #expect(back == profile)
        #expect(back.settings.reappliesOnConnect == (baseOnDevice && applyOnConnect))
    }

    @Test("a setting of the wrong type is reported, naming it")
    func wrongType() {
        let text = Self.oldProfile.replacing("\"layout\"", with: "\"applyOnConnect\" : \"yes\", \"layout\"")
        #expect(throws: KeymapError.self) { try StoredProfile(json: Array(text.utf8)) }
        do {
            _ = try StoredProfile(json: Array(text.utf8))
        } catch {
            #expect(error.description.contains("applyOnConnect"))
        }
    }
}
