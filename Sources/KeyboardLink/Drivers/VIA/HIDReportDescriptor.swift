/// A HID report descriptor, parsed far enough to list its top-level application collections and their usages
/// (HID 1.11 section 6.2.2): enough to tell a VIA raw HID interface (usage page 0xFF60, usage 0x61) apart.
package struct HIDReportDescriptor: Hashable, Sendable {
    /// A usage: page and id.
    package struct Usage: Hashable, Sendable, CustomStringConvertible {
        /// The usage page (0x01 generic desktop, 0xFF00-0xFFFF vendor-defined).
        package var page: UInt16
        /// The usage id within the page.
        package var id: UInt16

        /// Creates a usage.
        package init(page: UInt16, id: UInt16) {
            self.page = page
            self.id = id
        }

        /// QMK's raw HID interface, which VIA uses.
        package static let viaRawHID = Usage(page: 0xFF60, id: 0x61)

        package var description: String {
            "usage page 0x\(String(page, radix: 16, uppercase: true)) usage 0x\(String(id, radix: 16, uppercase: true))"
        }
    }

    /// Why a descriptor could not be parsed.
    package enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// An item at `offset` announces more data bytes than remain.
        case truncatedItem(offset: Int)
        /// A Pop at `offset` without a matching Push.
        case popWithoutPush(offset: Int)
        /// Pushes nested deeper than `limit`.
        case pushTooDeep(limit: Int)
        /// An End Collection at `offset` without an open collection.
        case unbalancedEndCollection(offset: Int)
        /// Collections nested deeper than `limit`.
        case collectionsTooDeep(limit: Int)

        package var description: String {
            let advice = "the device's report descriptor is malformed; it cannot be used for VIA"
            switch self {
            case .truncatedItem(let offset):
                return "HID report descriptor item at offset \(offset) is cut short; \(advice)"
            case .popWithoutPush(let offset):
                return "HID report descriptor pops at offset \(offset) without a push; \(advice)"
            case .pushTooDeep(let limit): return "HID report descriptor pushes deeper than \(limit); \(advice)"
            case .unbalancedEndCollection(let offset):
                return "HID report descriptor ends a collection at offset \(offset) that was never opened; \(advice)"
            case .collectionsTooDeep(let limit):
                return "HID report descriptor nests collections deeper than \(limit); \(advice)"
            }
        }
    }

    /// The report ID (global item 0x85) of each top-level application collection's first report, in the order of
    /// ``applicationCollections``: nil for a collection whose reports are not numbered. A Bluetooth LE keyboard
    /// carries VIA's raw HID collection in its one HID service beside the keyboard collection, so its reports are
    /// numbered; QMK's USB raw HID interface has a descriptor of its own, unnumbered.
    package let applicationReportIDs: [UInt8?]

    /// The report ID of the first application collection with `usage`; nil when it is absent or unnumbered.
    package func reportID(of usage: Usage) -> UInt8? {
        guard let index = applicationCollections.firstIndex(of: usage) else { return nil }
        return applicationReportIDs[index]
    }

    /// The usage of each top-level application collection, in order (nil usage when the collection had none).
    package let applicationCollections: [Usage?]
    /// Every usage page the descriptor names, by a Usage Page item or inside an extended (4-byte) usage: a node whose
    /// only page is vendor-defined carries no key, consumer or pointer reports.
    package let usagePages: Set<UInt16>

    /// Whether a top-level application collection has this usage.
    package func declares(_ usage: Usage) -> Bool {
        applicationCollections.contains(usage)
    }

    /// Parses a descriptor.
    /// - Throws: ParseError for truncated items or unbalanced push/pop and collections.
    package init(bytes: [UInt8]) throws(ParseError) {
        let stackLimit = 32
        var usagePage: UInt16 = 0
        var globalStack: [(page: UInt16, reportID: UInt8?)] = []
        var reportID: UInt8?
        var reportIDs: [UInt8?] = []
        // Local usages: an extended (4-byte) usage carries its page, a short one takes the page current at the
        // main item that follows.
        var localUsages: [(page: UInt16?, id: UInt16)] = []
        var collectionDepth = 0
        var openApplication = false
        var collections: [Usage?] = []
        var pages: Set<UInt16> = []
        var offset = 0
        while offset < bytes.count {
            let prefix = bytes[offset]
            if prefix == 0xFE {
                // Long item: size, tag, data. None is defined; skip it.
                guard offset + 2 < bytes.count else { throw .truncatedItem(offset: offset) }
                let next = offset + 3 + Int(bytes[offset + 1])
                guard next <= bytes.count else { throw .truncatedItem(offset: offset) }
                offset = next
                continue
            }
            let size = [0, 1, 2, 4][Int(prefix & 0x03)]
            guard offset + 1 + size <= bytes.count else { throw .truncatedItem(offset: offset) }
            var data: UInt32 = 0
            for index in 0..<size {
                data |= UInt32(bytes[offset + 1 + index]) << UInt32(8 * index)
            }
            let type = (prefix >> 2) & 0x03
            let tag = prefix >> 4
            switch (type, tag) {
            case (1, 0x0):  // Usage Page
                usagePage = UInt16(truncatingIfNeeded: data)
                pages.insert(usagePage)
            case (1, 0xA):  // Push
                guard globalStack.count < stackLimit else { throw .pushTooDeep(limit: stackLimit) }
                globalStack.append((usagePage, reportID))
            case (1, 0xB):  // Pop
                guard let saved = globalStack.popLast() else { throw .popWithoutPush(offset: offset) }
                usagePage = saved.page
                reportID = saved.reportID
            case (1, 0x8):  // Report ID
                reportID = UInt8(truncatingIfNeeded: data)
            case (2, 0x0), (2, 0x1), (2, 0x2):  // Usage, Usage Minimum, Usage Maximum
                if size == 4 { pages.insert(UInt16(truncatingIfNeeded: data >> 16)) }
                guard tag == 0x0 else { break }
                localUsages.append(
                    size == 4
                        ? (UInt16(truncatingIfNeeded: data >> 16), UInt16(truncatingIfNeeded: data))
                        : (nil, UInt16(truncatingIfNeeded: data)))
            case (0, 0xA):  // Collection
                guard collectionDepth < stackLimit else { throw .collectionsTooDeep(limit: stackLimit) }
                if collectionDepth == 0 && data == 0x01 {
                    collections.append(localUsages.first.map { Usage(page: $0.page ?? usagePage, id: $0.id) })
                    reportIDs.append(nil)
                    openApplication = true
                }
                collectionDepth += 1
                localUsages.removeAll()
            case (0, 0xC):  // End Collection
                guard collectionDepth > 0 else { throw .unbalancedEndCollection(offset: offset) }
                collectionDepth -= 1
                localUsages.removeAll()
            case (0, _):  // Input, Output, Feature: local items apply to one main item only.
                if openApplication, collectionDepth > 0, let last = reportIDs.indices.last, reportIDs[last] == nil {
                    reportIDs[last] = reportID
                    openApplication = reportID == nil
                }
                localUsages.removeAll()
            default:
                break
            }
            offset += 1 + size
        }
        applicationCollections = collections
        usagePages = pages
        applicationReportIDs = reportIDs
    }
}
