extension VIAKeymap {
    /// The reports that turn `old` into `self`, writing only what differs.
    ///
    /// Changed keycodes that lie within 14 keycodes (one 28-byte report) of each other share one
    /// `dynamic_keymap_set_buffer`, with the unchanged keycodes between them rewritten with their current value;
    /// a lone change uses `dynamic_keymap_set_keycode`. So there are never more reports than changed keycodes.
    /// - Throws: VIAClientError.invalidKeymapGeometry when the keymaps differ in shape.
    package func writeCommands(replacing old: VIAKeymap) throws(VIAClientError) -> [VIACommand] {
        let changed = try changes(from: old).map { index(of: $0.position) }
        let perReport = VIACommand.maximumChunkLength / 2
        var commands: [VIACommand] = []
        var next = 0
        while next < changed.count {
            let start = changed[next]
            var last = next
            while last + 1 < changed.count && changed[last + 1] - start < perReport {
                last += 1
            }
            let end = changed[last]
            if start == end {
                let position = position(ofIndex: start)
                commands.append(
                    .setKeycode(
                        layer: position.layer, row: position.row, column: position.column, keycode: keycodes[start]))
            } else {
                let data = keycodes[start...end].flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                commands.append(.keymapSetBuffer(offset: UInt16(start * 2), data: data))
            }
            next = last + 1
        }
        return commands
    }
}
