import Glibc
import KeyboardLinkSupport
import Synchronization
import Testing

@testable import KeyboardLinkService

/// Collects what a logger writes.
private final class Collector: Sendable {
    private let texts = Mutex<[String]>([])
    var sink: LogSink { LogSink { text in self.texts.withLock { $0.append(text) } } }
    var output: String { texts.withLock { $0.joined() } }
    var writes: [String] { texts.withLock { $0 } }
}

@Suite("Logger")
struct LoggerTests {
    @Test(
        "each level carries its journald priority",
        arguments: [
            (LogLevel.error, "<3>"), (.warning, "<4>"), (.notice, "<5>"), (.info, "<6>"), (.debug, "<7>"),
        ])
    func priorityPrefix(level: LogLevel, prefix: String) {
        let collector = Collector()
        let logger = Logger(threshold: .debug, sink: collector.sink)
        logger.log(level, "keyboard attached")
        #expect(collector.output == prefix + "keyboard attached\n")
    }

    @Test("the threshold drops less important lines")
    func threshold() {
        let collector = Collector()
        let logger = Logger(threshold: .notice, sink: collector.sink)
        logger.error("e")
        logger.warning("w")
        logger.notice("n")
        logger.info("i")
        logger.debug("d")
        #expect(collector.output == "<3>e\n<4>w\n<5>n\n")
    }

    @Test("a message below the threshold is never built")
    func lazyMessage() {
        let collector = Collector()
        let logger = Logger(threshold: .info, sink: collector.sink)
        let built = Mutex(0)
        func expensive() -> String {
            built.withLock { $0 += 1 }
            return "detail"
        }
        logger.debug(expensive())
        logger.info(expensive())
        #expect(built.withLock { $0 } == 1)
        #expect(collector.output == "<6>detail\n")
    }

    @Test("changing the threshold applies to the next message")
    func changeThreshold() {
        let collector = Collector()
        let logger = Logger(threshold: .info, sink: collector.sink)
        logger.debug("hidden")
        logger.threshold = .debug
        logger.debug("shown")
        #expect(logger.threshold == .debug)
        #expect(logger.isEnabled(.debug))
        #expect(collector.output == "<7>shown\n")
    }

    @Test("a message is one journal entry: a newline inside it, as a device name may carry, is escaped")
    func oneEntry() {
        #expect(Logger.format("first\nsecond", level: .warning) == "<4>first\\nsecond\n")
        #expect(
            Logger.format("Evil\u{1B}[8mHidden\n<3>FAKE LINE\u{202E}\u{85}", level: .info)
                == "<6>Evil\\x1b[8mHidden\\n<3>FAKE LINE\\u{202E}\\x85\n")
    }

    @Test("one trailing newline and CRLF line ends do not make extra or dirty lines")
    func lineEnds() {
        #expect(Logger.format("done\n", level: .info) == "<6>done\n")
        #expect(Logger.format("a\r\n", level: .info) == "<6>a\n")
        #expect(Logger.format("", level: .error) == "<3>\n")
    }

    @Test("the file-descriptor sink writes the prefixed lines with write(2)")
    func fileDescriptorSink() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let logger = Logger(threshold: .info, sink: .fileDescriptor(ends[1]))
        logger.error("BlueZ went away\nresyncing")
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        try #require(count > 0)
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "<3>BlueZ went away\\nresyncing\n")
    }

    @Test("one message is one write, so lines from threads never interleave")
    func concurrentWrites() async {
        let collector = Collector()
        let logger = Logger(threshold: .info, sink: collector.sink)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<50 { logger.info("task \(task)\nline \(index)") }
                }
            }
        }
        let writes = collector.writes
        #expect(writes.count == 400)
        for write in writes {
            // One message, one line: its newline is escaped.
            let lines = write.split(separator: "\n")
            #expect(lines.count == 1)
            #expect(lines.first?.hasPrefix("<6>task ") == true && lines.first?.contains("\\nline ") == true)
        }
    }
}

@Suite("LogLevel")
struct LogLevelTests {
    @Test("names parse in any case and round-trip", arguments: LogLevel.allCases)
    func names(level: LogLevel) {
        #expect(LogLevel(name: level.name) == level)
        #expect(LogLevel(name: level.name.uppercased()) == level)
    }

    @Test("unknown names are refused", arguments: ["", "warn", "verbose", "6", "info "])
    func unknown(name: String) {
        #expect(LogLevel(name: name) == nil)
    }

    @Test("the names list runs from most to least severe")
    func allNames() {
        #expect(LogLevel.allNames == ["error", "warning", "notice", "info", "debug"])
    }
}
