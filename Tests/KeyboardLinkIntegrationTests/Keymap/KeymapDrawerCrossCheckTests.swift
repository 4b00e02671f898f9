import Foundation
import KeyboardLink
import KeyboardLinkTestSupport
import Testing

/// kblink's ZMK and QMK exports read by a parser we did not write: keymap-drawer's `keymap parse`, from PyPI, in a
/// virtual environment this test makes (once, then reused). Its layers must hold what `kblink keymap show --json`
/// shows, key for key.
@Suite("keymap-drawer reads kblink's ZMK and QMK exports", .serialized)
struct KeymapDrawerCrossCheckTests {
    /// keymap-drawer and the tree-sitter it parses devicetree with, pinned: newer tree-sitter releases changed the
    /// API keymap-drawer 0.21 calls and the grammar version it loads.
    static let requirements = ["keymap-drawer==0.21.0"]
    /// Installed over keymap-drawer's own choice (`--no-deps`: keymap-drawer 0.21 declares tree-sitter 0.24 and
    /// later, whose API it does not call correctly).
    static let pinned = ["tree-sitter==0.23.2", "tree-sitter-devicetree==0.14.1"]
    static let environment = "/tmp/kblink-keymap-drawer-0.21.0"

    /// The virtual environment, made on first use: `python3 -m venv` beside it, the pinned packages installed from
    /// PyPI, then renamed into place so that a half-made one is never used.
    static func virtualEnvironment() async throws -> String {
        // Run as `bin/python -m`: the scripts in bin/ name the directory they were installed in, which the rename
        // below changes, while the interpreter finds its environment from where it is.
        if FileManager.default.fileExists(atPath: environment + "/bin/python") { return environment }
        let partial = environment + ".partial-\(getpid())"
        let made = try await runProcess("/usr/bin/python3", ["-m", "venv", partial], timeout: .seconds(120))
        try #require(made.status == 0, "python3 -m venv failed: \(made.standardError)")
        let pip = try await runProcess(
            partial + "/bin/python", ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"] + requirements,
            timeout: .seconds(600))
        try #require(pip.status == 0, "keymap-drawer could not be installed from PyPI: \(pip.standardError)")
        let tree = try await runProcess(
            partial + "/bin/python",
            ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"] + pinned,
            timeout: .seconds(600))
        try #require(tree.status == 0, "tree-sitter could not be installed from PyPI: \(tree.standardError)")
        if rename(partial, environment) != 0 {
            // Another test run made it meanwhile.
            _ = try await runProcess("/bin/rm", ["-rf", partial])
        }
        return environment
    }

    /// keymap-drawer's parse of a file, as JSON (the venv's PyYAML turns its YAML into JSON).
    static func parse(_ venv: String, _ flag: String, _ file: String, config: String) async throws -> [String: Any] {
        let yaml = try await runProcess(
            venv + "/bin/python", ["-m", "keymap_drawer", "-c", config, "parse", flag, file], timeout: .seconds(120))
        try #require(yaml.status == 0, "keymap parse \(flag) failed: \(yaml.standardError)")
        let json = try await runProcess(
            venv + "/bin/python", ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
            input: yaml.standardOutput)
        try #require(json.status == 0, "\(json.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    }

    /// keymap-drawer's legend for an action in kblink's QMK spelling, with the configuration below (no keycode
    /// maps, no prefixes removed): `_` shown as a space, ZMK's `N1` as `1`, layer switches by layer name (ZMK's
    /// `display-name`, QMK's `L1`), ZMK's `K_` and `C_` prefixes dropped, hold-taps as `{t, h}`, `TG` and `TO` both
    /// as `{t: layer, h: toggle}`, macros by
    /// their behaviour (`&sig`) or keycode (`QK MACRO 0`).
    static func legend(_ text: String, zmk: Bool, macros: [String]) throws -> String {
        let action = try KeyAction(parsing: text)
        func layer(_ number: Int) -> String { zmk ? "Layer \(number)" : "L\(number)" }
        func key(_ press: KeyPress) -> String {
            guard zmk else { return KeyAction.key(press).description.replacing("_", with: " ") }
            var name = String(KeyAction.key(press).formatted(.zmk).dropFirst(4))
            if let match = name.firstMatch(of: /^(KP_)?N([0-9])$/) { name = (match.1.map(String.init) ?? "") + match.2 }
            // keymap-drawer drops ZMK's K_ and C_ prefixes (K_APP, C_MUTE).
            if name.hasPrefix("K_") || name.hasPrefix("C_") { name = String(name.dropFirst(2)) }
            return name.replacing("_", with: " ")
        }
        switch action {
        case .none: return ""
        case .transparent: return "TRANS"
        case .key(let press): return key(press)
        case .momentaryLayer(let number): return layer(number)
        case .toggleLayer(let number), .toLayer(let number): return "{t: \(layer(number)), h: toggle}"
        case .layerTap(let number, let tap): return "{t: \(key(tap)), h: \(layer(number))}"
        case .modTap(let modifiers, let tap):
            let hold: String
            if zmk {
                hold = String(action.formatted(.zmk).dropFirst(4).split(separator: " ")[0])
            } else if modifiers.rawValue.nonzeroBitCount == 1 {
                hold = String(action.description.prefix { $0 != "_" })
            } else {
                hold = String(action.description.dropFirst(3).prefix { $0 != "," }).replacing(" ", with: "")
            }
            return "{t: \(key(tap)), h: \(hold)}"
        case .macro(let name):
            return zmk ? "&\(name)" : "QK MACRO \(macros.firstIndex(of: name.rawValue) ?? -1)"
        case .qmkKeycode: return text
        }
    }

    /// A key of keymap-drawer's output as the same text form; `{type: held}` (keymap-drawer marks the key that
    /// holds a layer on that layer) is the transparent key it stands on.
    static func legend(_ value: Any) -> String {
        if let text = value as? String { return text }
        guard var object = value as? [String: Any] else { return "\(value)" }
        if object["type"] as? String == "held" { object["type"] = nil }
        if object.isEmpty { return "TRANS" }
        let tap = object["t"].map { "\($0)" } ?? ""
        guard let hold = object["h"] else { return tap }
        return "{t: \(tap), h: \(hold)}"
    }

    @Test("keymap parse of kblink's ZMK and QMK exports matches keymap show, key for key", arguments: ["aula", "vgn"])
    func crossCheck(device: String) async throws {
        let venv = try await Self.virtualEnvironment()
        let directory = try TemporaryDirectory()
        let config = directory.path + "/keymap-drawer.yaml"
        try """
        parse_config:
          qmk_remove_keycode_prefix: []
          qmk_keycode_map: {}
          zmk_remove_keycode_prefix: []
          zmk_keycode_map: {}
          modifier_fn_map: null
          trans_legend: {t: TRANS}

        """.write(toFile: config, atomically: true, encoding: .utf8)
        try await withDaemon { harness in
            try await KeymapFileCommandTests.edit(harness, device)
            let macroNames = ["copy", "shifty", "sig"]
            var shown: [[(key: String, action: String)]] = []
            let first = try await harness.kblink(["keymap", "show", device, "--json"])
            let layerCount =
                try #require(
                    try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])["layers"]
                as? Int ?? 0
            #expect(layerCount >= 4)
            for layer in 0..<layerCount {
                let result = try await harness.kblink(["keymap", "show", device, "--layer", String(layer), "--json"])
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
                #expect(object["layers"] as? Int == layerCount)
                let keys = try #require(object["keys"] as? [[String: Any]])
                shown.append(keys.map { ($0["key"] as? String ?? "", $0["action"] as? String ?? "") })
            }
            for (format, flag, zmk) in [("zmk", "-z", true), ("qmk", "-q", false)] {
                let file = directory.path + "/\(device).\(format == "zmk" ? "keymap" : "json")"
                let exported = try await harness.kblink(["keymap", "export", device, "--format", format, file])
                #expect(exported.status == 0, "\(exported.standardError)")
                let parsed = try await Self.parse(venv, flag, file, config: config)
                let layers = try #require(parsed["layers"] as? [String: Any])
                #expect(layers.count == layerCount, "\(format): \(layers.keys.sorted())")
                for (index, keys) in shown.enumerated() {
                    let name = zmk ? "Layer \(index)" : "L\(index)"
                    let drawn = try #require(layers[name] as? [Any], "\(format): no layer \(name)")
                    #expect(drawn.count == keys.count, "\(format) \(name)")
                    for (position, (key, action)) in keys.enumerated() where position < drawn.count {
                        let expected = try Self.legend(action, zmk: zmk, macros: macroNames)
                        let got = Self.legend(drawn[position])
                        #expect(got == expected, "\(device) \(format) layer \(index) key \(key) (\(action)): \(got)")
                    }
                }
            }
        }
    }
}
