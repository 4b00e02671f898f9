import Glibc
import Synchronization
import Testing

@testable import KeyboardLinkService

@Suite("SystemdNotifier")
struct SystemdNotifierTests {
    @Test("READY=1 with STATUS reaches a socket file")
    func readyOverPath() throws {
        let receiver = try DatagramReceiver()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        #expect(notifier.isEnabled)
        try notifier.ready(status: "2 keyboards, 1 connected")
        #expect(receiver.receive() == "READY=1\nSTATUS=2 keyboards, 1 connected")
    }

    @Test("an @name reaches the abstract socket of exactly that name")
    func abstractSocket() throws {
        let name = "kblink-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = try DatagramReceiver(abstractName: name)
        // A longer abstract name is a different socket: sending there must fail, proving the length is exact.
        let longer = SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name + "x"])
        #expect(throws: SystemdNotifierError.self) { try longer.stopping() }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        try notifier.stopping()
        #expect(receiver.receive() == "STOPPING=1")
    }

    @Test("each state has its systemd assignment")
    func assignments() throws {
        let receiver = try DatagramReceiver()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        try notifier.watchdog()
        #expect(receiver.receive() == "WATCHDOG=1")
        try notifier.status("scanning")
        #expect(receiver.receive() == "STATUS=scanning")
        try notifier.send([.extendTimeout(.seconds(90)), .status("loading 1000 keyboards")])
        #expect(receiver.receive() == "EXTEND_TIMEOUT_USEC=90000000\nSTATUS=loading 1000 keyboards")
    }

    @Test("RELOADING=1 carries the CLOCK_MONOTONIC time of the reload")
    func reloading() throws {
        let receiver = try DatagramReceiver()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        try notifier.reloading()
        var after = timespec()
        clock_gettime(CLOCK_MONOTONIC, &after)
        let lines = try #require(receiver.receive()).split(separator: "\n")
        try #require(lines.count == 2)
        #expect(lines[0] == "RELOADING=1")
        #expect(lines[1].hasPrefix("MONOTONIC_USEC="))
        let stamp = try #require(UInt64(lines[1].dropFirst("MONOTONIC_USEC=".count)))
        let low = UInt64(before.tv_sec) * 1_000_000 + UInt64(before.tv_nsec) / 1_000
        let high = UInt64(after.tv_sec) * 1_000_000 + UInt64(after.tv_nsec) / 1_000
        #expect((low...high).contains(stamp))
    }

    @Test("a newline or NUL in a status cannot start a new assignment")
    func statusIsOneLine() throws {
        let receiver = try DatagramReceiver()
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": receiver.notifySocket])
        try notifier.status("name\nREADY=1\r\0x")
        #expect(receiver.receive() == "STATUS=name READY=1 x")
    }

    @Test("without NOTIFY_SOCKET every call is a no-op", arguments: [[:], ["NOTIFY_SOCKET": ""]])
    func disabled(environment: [String: String]) throws {
        let notifier = SystemdNotifier(environment: environment)
        #expect(!notifier.isEnabled)
        try notifier.ready()
        try notifier.watchdog()
        try notifier.stopping(status: "bye")
    }

    @Test(
        "an unusable NOTIFY_SOCKET is reported on send",
        arguments: [
            "run/systemd/notify", "@", "/" + String(repeating: "a", count: 120),
            "@" + String(repeating: "b", count: 108),
        ]
    )
    func invalidAddress(value: String) {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": value])
        #expect(notifier.isEnabled)
        #expect {
            try notifier.ready()
        } throws: { error in
            guard case .invalidSocketAddress(let reported, _) = error as? SystemdNotifierError else { return false }
            return reported == value
        }
    }

    @Test("a path that fits exactly (107 bytes) is accepted, an abstract name of 107 bytes too")
    func longestAddresses() throws {
        let path = "/" + String(repeating: "p", count: 106)
        let abstract = "@" + String(repeating: "q", count: 107)
        #expect(try NotifySocketAddress(parsing: path).name.count == 107)
        #expect(try NotifySocketAddress(parsing: abstract).name.count == 107)
    }

    @Test("a send to a socket nobody listens on fails with the address")
    func nobodyListening() {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/kblink/notify"])
        #expect(throws: SystemdNotifierError.sendFailed(address: "/nonexistent/kblink/notify", errno: ENOENT)) {
            try notifier.ready()
        }
    }
}

@Suite("SystemdNotifier watchdog")
struct SystemdWatchdogTests {
    @Test("WATCHDOG_USEC gives the interval; pings are due every half interval")
    func interval() {
        let notifier = SystemdNotifier(environment: ["WATCHDOG_USEC": "30000000"], processID: 42)
        #expect(notifier.watchdogInterval == .seconds(30))
        #expect(notifier.watchdogPingInterval == .seconds(15))
    }

    @Test("WATCHDOG_PID must name this process")
    func processCheck() {
        let mine = SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "42"], processID: 42)
        #expect(mine.watchdogInterval == .seconds(2))
        let other = SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "43"], processID: 42)
        #expect(other.watchdogInterval == nil)
        let garbage = SystemdNotifier(environment: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "x"], processID: 42)
        #expect(garbage.watchdogInterval == nil)
    }

    @Test("no watchdog for a missing, zero or malformed WATCHDOG_USEC", arguments: [nil, "0", "-5", "30s", ""])
    func noWatchdog(value: String?) {
        var environment = ["NOTIFY_SOCKET": "/run/systemd/notify"]
        environment["WATCHDOG_USEC"] = value
        let notifier = SystemdNotifier(environment: environment, processID: 42)
        #expect(notifier.watchdogInterval == nil)
        #expect(notifier.watchdogPingInterval == nil)
    }

    @Test("keepWatchdogAlive pings while healthy and stops when cancelled")
    func pings() async throws {
        let receiver = try DatagramReceiver()
        let notifier = SystemdNotifier(
            environment: [
                "NOTIFY_SOCKET": receiver.notifySocket, "WATCHDOG_USEC": "2000", "WATCHDOG_PID": "\(getpid())",
            ])
        let checks = Mutex(0)
        let task = Task {
            await notifier.keepWatchdogAlive {
                // Unhealthy on the first check: that round must not ping.
                checks.withLock { count in
                    count += 1
                    return count > 1
                }
            }
        }
        // Poll without blocking: a blocking receive would hold one of the few cooperative threads the pinging
        // task needs when many tests run at once.
        func nextDatagram() async -> String? {
            for _ in 0..<1_000 {
                if let datagram = receiver.receive(milliseconds: 0) { return datagram }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return nil
        }
        for _ in 0..<3 {
            #expect(await nextDatagram() == "WATCHDOG=1")
        }
        #expect(checks.withLock { $0 } >= 4)
        task.cancel()
        await task.value
    }

    @Test("keepWatchdogAlive returns at once without a watchdog")
    func noWatchdogReturns() async {
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/run/systemd/notify"])
        await notifier.keepWatchdogAlive()
    }
}
