import KeyboardLinkKeymap

/// The keymap a simulated keyboard's owner gave it: like every real ZMK or VIA keyboard, it is not kblink's default
/// keymap for the layout, so a push that wrote more than the user's edits would show.
///
/// Layer 0 differs from kblink's default on every key: each key does what the next key of the layout (in the
/// layout's key order, the last taking the first's) does by default, or F24 where that happens to be the same.
/// Layer 1 binds the first twelve keys (what the key two places on does by default); the layers above are
/// transparent.
package enum SimulatedOwnerKeymap {
    /// The owner's keymap for `layout`, with `layerCount` layers (at least 1).
    package static func keymap(for layout: PhysicalLayout, layerCount: Int) -> Keymap {
        let defaults = layout.keys.map(\.defaultAction)
        let count = defaults.count
        let fallback = (try? KeyAction(parsing: "KC_F24")) ?? .none
        var keymap = Keymap(defaultsFor: layout, layerCount: max(layerCount, 1))
        for (index, key) in layout.keys.enumerated() {
            let next = defaults[(index + 1) % count]
            keymap.setAction(next != defaults[index] ? next : fallback, layer: 0, key: key.name)
            if keymap.layerCount > 1 && index < 12 {
                keymap.setAction(defaults[(index + 2) % count], layer: 1, key: key.name)
            }
        }
        return keymap
    }

    /// The text of the macro the owner put in a VIA keyboard's slot 0 (played by the 13th key on layer 1).
    package static let viaMacroText = "greetings from the owner"
}
