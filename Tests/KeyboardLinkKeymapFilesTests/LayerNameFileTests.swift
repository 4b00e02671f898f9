import KeyboardLinkKeymap
import Testing

@testable import KeyboardLinkKeymapFiles

@Suite("Layer names in keymap files")
struct LayerNameFileTests {
    @Test("a keymap's layer names are written as display-name and read back; an unnamed layer stays unnamed")
    func zmkNames() throws {
        let (layout, keymap) = try KeymapFileFixtures.richKeymap("aula-f87")
        var named = keymap
        named.setLayerName(try LayerName("Base"), layer: 0)
        named.setLayerName(try LayerName("Navigation ←→"), layer: 1)
        let text = try KeymapFiles.write(KeymapFileContent(named), as: .zmk, layout: layout, keyboard: "Test")
        #expect(text.contains("display-name = \"Navigation ←→\";"))
        #expect(text.contains("display-name = \"Layer 2\";"))
        let read = try KeymapFiles.read(text, as: .zmk, layout: layout, macroNames: keymap.macros.keys.sorted())
        #expect(read.layerNames.prefix(3) == ["Base", "Navigation ←→", ""])
        #expect(try read.keymap.validated(for: layout) == named)
    }

    @Test("a display-name kblink cannot hold is refused by its line")
    func hostileName() throws {
        let layout = try PhysicalLayout.builtIn("aula-f87")
        let long = String(repeating: "x", count: 65)
        let text = KeymapFileFixtures.handWrittenZMK.replacing(
            "display-name = \"Nav\";", with: "display-name = \"\(long)\";")
        #expect(text != KeymapFileFixtures.handWrittenZMK)
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(long) }
        #expect(throws: KeymapFileError.self) { try KeymapFiles.read(text, as: .zmk, layout: layout) }
        do {
            _ = try KeymapFiles.read(text, as: .zmk, layout: layout)
        } catch {
            #expect(error.line == (line ?? -1) + 1)
            #expect(error.reason.contains("64 bytes"))
        }
    }
}
