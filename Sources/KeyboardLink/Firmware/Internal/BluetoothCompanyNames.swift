internal import CBluetooth

/// Bluetooth SIG company identifiers named through libbluetooth's table.
enum BluetoothCompanyNames {
    /// The company name for a Bluetooth SIG company identifier, from libbluetooth's `bt_compidtostr(int)`;
    /// nil for an identifier the table does not know (it answers "not assigned") and for 0xFFFF
    /// (it answers "internal use", which names no company).
    static func name(for id: UInt16) -> String? {
        // bt_compidtostr returns a pointer to a static string for every input: no ownership, no thread hazard.
        guard let cString = bt_compidtostr(Int32(id)) else { return nil }
        let name = String(cString: cString)
        switch name {
        case "", "not assigned", "internal use": return nil
        default: return name
        }
    }
}
