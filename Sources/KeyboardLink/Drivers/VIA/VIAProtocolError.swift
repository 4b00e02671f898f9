/// A VIA report that is malformed, or a reply that does not answer the request.
package enum VIAProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A report was not 32 bytes long.
    case wrongReportLength(Int)
    /// A buffer chunk longer than the 28 bytes a report can carry.
    case chunkTooLong(Int)
    /// A buffer range past the 16-bit offsets VIA can address.
    case rangeOutOfBuffer(offset: Int, length: Int)
    /// A request whose command id is not one VIA defines (seen by a simulated keyboard).
    case unknownCommand(UInt8)
    /// The keyboard answered 0xFF: it does not handle this command (or this value id).
    case unsupportedCommand(VIACommandID)
    /// The reply does not echo the request: it belongs to another request, or the keyboard is not speaking VIA.
    case echoMismatch(command: VIACommandID, reply: VIAReport)

    package var description: String {
        switch self {
        case .wrongReportLength(let length):
            return "VIA report of \(length) bytes, expected 32; is this hidraw node the keyboard's raw HID interface?"
        case .chunkTooLong(let length):
            return "VIA buffer chunk of \(length) bytes, at most 28 fit in a report (a bug in the caller)"
        case let .rangeOutOfBuffer(offset, length):
            return "VIA buffer range \(offset)+\(length) is past the 64 KiB VIA can address (a bug in the caller)"
        case .unknownCommand(let byte):
            return "VIA command 0x\(String(byte, radix: 16)) does not exist"
        case .unsupportedCommand(let command):
            return "the keyboard does not handle VIA \(command); its firmware may lack VIA support or this feature"
        case let .echoMismatch(command, reply):
            return "the keyboard's reply (\(reply)) does not answer VIA \(command); unplug it or reconnect, then retry"
        }
    }
}
