import Glibc

/// Users and groups from the system's account databases (`/etc/passwd`, `/etc/group` and whatever NSS adds), read
/// with the reentrant C calls.
package enum UnixAccounts {
    /// A user's name and primary group.
    package struct User: Sendable, Equatable {
        package var name: String
        package var primaryGroupID: UInt32

        /// Creates a user record.
        package init(name: String, primaryGroupID: UInt32) {
            self.name = name
            self.primaryGroupID = primaryGroupID
        }
    }

    /// The group called `name` (`getgrnam_r`), or nil when there is none.
    package static func groupID(named name: String) -> UInt32? {
        withRecordBuffer { buffer in
            var group = Glibc.group()
            var result: UnsafeMutablePointer<Glibc.group>?
            let status = getgrnam_r(name, &group, buffer.baseAddress, buffer.count, &result)
            if status == ERANGE { return .tooSmall }
            guard status == 0, let found = result else { return .done(nil) }
            return .done(found.pointee.gr_gid)
        } ?? nil
    }

    /// The user with `uid` (`getpwuid_r`), or nil when there is none.
    package static func user(withID uid: UInt32) -> User? {
        withRecordBuffer { buffer in
            var entry = passwd()
            var result: UnsafeMutablePointer<passwd>?
            let status = getpwuid_r(uid, &entry, buffer.baseAddress!, buffer.count, &result)
            if status == ERANGE { return .tooSmall }
            guard status == 0, let found = result, let name = found.pointee.pw_name else { return .done(nil) }
            return .done(User(name: String(cString: name), primaryGroupID: found.pointee.pw_gid))
        } ?? nil
    }

    /// Every group `user` belongs to, its primary group included (`getgrouplist`): what the account databases say,
    /// which a running process may not have picked up yet (groups are read at login).
    package static func groupIDs(of user: User) -> [UInt32] {
        var count: Int32 = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let capacity = count
            let found = getgrouplist(user.name, user.primaryGroupID, &groups, &count)
            if found >= 0 {
                return Array(groups.prefix(Int(count)))
            }
            // -1: `count` now holds how many there are; grow once more unless that makes no progress.
            guard count > capacity, count < 65_536 else { return [user.primaryGroupID] }
        }
    }

    private enum Attempt<Value> {
        case done(Value)
        case tooSmall
    }

    /// Runs a `get*_r` call with a buffer that grows while the call answers `ERANGE` (up to 1 MiB).
    private static func withRecordBuffer<Value>(
        _ body: (UnsafeMutableBufferPointer<CChar>) -> Attempt<Value>
    ) -> Value? {
        var size = 1024
        while size <= 1 << 20 {
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: size)
            defer { buffer.deallocate() }
            switch body(buffer) {
            case .done(let value): return value
            case .tooSmall: size *= 4
            }
        }
        return nil
    }
}
