import Glibc
import Testing

@testable import KeyboardLinkKeymap

/// File errors name the errno, so that a message never says just "errno N".
@Suite("KeymapError errno names")
struct KeymapErrorTextTests {
    @Test(
        "common errno values are named",
        arguments: [
            (EPERM, "EPERM"), (ENOENT, "ENOENT"), (EIO, "EIO"), (EACCES, "EACCES"), (EEXIST, "EEXIST"),
            (ENOTDIR, "ENOTDIR"), (EISDIR, "EISDIR"), (EINVAL, "EINVAL"), (EMFILE, "EMFILE"), (ENFILE, "ENFILE"),
            (EFBIG, "EFBIG"), (ENOSPC, "ENOSPC"), (EROFS, "EROFS"), (ENAMETOOLONG, "ENAMETOOLONG"), (ELOOP, "ELOOP"),
            (EDQUOT, "EDQUOT"), (EBUSY, "EBUSY"), (EXDEV, "EXDEV"), (ENOTEMPTY, "ENOTEMPTY"), (ETXTBSY, "ETXTBSY"),
            (ENOMEM, "ENOMEM"), (EAGAIN, "EAGAIN"), (EINTR, "EINTR"), (EBADF, "EBADF"), (ESTALE, "ESTALE"),
        ])
    func named(_ code: Int32, _ name: String) {
        let text = KeymapError.io(operation: "write", path: "/x/p.json", errno: code).description
        #expect(text.hasPrefix("write /x/p.json failed: "))
        #expect(text.hasSuffix("(\(name))"), "\(text)")
        #expect(!text.contains("errno"), "\(text)")
    }

    @Test("the exact text of two of them")
    func exact() {
        #expect(
            KeymapError.io(operation: "rename", path: "/p", errno: EPERM).description
                == "rename /p failed: operation not permitted (EPERM)")
        #expect(
            KeymapError.io(operation: "write", path: "/p", errno: ENOSPC).description
                == "write /p failed: no space left on the device (ENOSPC)")
    }

    @Test("an unusual errno still gets the system's text and its number")
    func unusual() {
        let text = KeymapError.io(operation: "open", path: "/p", errno: ENOTSOCK).description
        #expect(text.hasPrefix("open /p failed: "))
        #expect(text.contains("88"), "\(text)")
        #expect(text.count > "open /p failed: errno 88".count, "\(text)")
    }
}
