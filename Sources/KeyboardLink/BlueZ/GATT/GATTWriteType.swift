/// How `WriteValue` writes a characteristic (the `type` option of BlueZ's `WriteValue`).
package enum GATTWriteType: String, Sendable, Hashable, CaseIterable {
    /// Write Request: the peer acknowledges; errors come back. The default for `write` characteristics.
    case request
    /// Write Command (write without response): no acknowledgement; fastest, for `write-without-response`.
    case command
    /// Reliable (prepared) write: the peer echoes the value before it is executed.
    case reliable
}
