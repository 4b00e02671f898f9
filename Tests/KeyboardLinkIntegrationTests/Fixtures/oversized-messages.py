# A stranger's oversized messages, marshalled by hand: one Properties.Set whose value is an `av` of 4 Mi
# variants (16 MiB), and one NameOwnerChanged signal sent to the service alone with the same array after a name the
# service follows. Prints the answers as JSON. Usage: oversized-messages.py BUS_ADDRESS SERVICE_NAME [ELEMENTS]
import json, os, socket, struct, sys

address, target_name = sys.argv[1], sys.argv[2]
elements = int(sys.argv[3]) if len(sys.argv) > 3 else 4 * 1024 * 1024


def socket_path(text):
    for part in text.split(";"):
        kind, _, rest = part.partition(":")
        keys = dict(item.split("=", 1) for item in rest.split(",") if "=" in item)
        if kind == "unix" and "path" in keys:
            return keys["path"]
        if kind == "unix" and "abstract" in keys:
            return "\0" + keys["abstract"]
    raise SystemExit("no unix address in " + text)


class Writer:
    """Marshals values in little-endian D-Bus wire format; alignment is relative to a start that is 8-aligned."""

    def __init__(self):
        self.data = bytearray()

    def align(self, n):
        self.data += b"\0" * ((-len(self.data)) % n)

    def byte(self, value):
        self.data.append(value)

    def uint32(self, value):
        self.align(4)
        self.data += struct.pack("<I", value)

    def string(self, text):
        raw = text.encode()
        self.uint32(len(raw))
        self.data += raw + b"\0"

    def signature(self, text):
        raw = text.encode()
        self.byte(len(raw))
        self.data += raw + b"\0"


serial = 0


def message(kind, fields, body=b"", signature="", flags=0):
    global serial
    serial += 1
    header = Writer()
    for code, type_code, value in fields + ([(8, "g", signature)] if signature else []):
        header.align(8)
        header.byte(code)
        header.signature(type_code)
        if type_code == "g":
            header.signature(value)
        else:
            header.string(value)
    fixed = struct.pack("<cBBBIII", b"l", kind, flags, 1, len(body), serial, len(header.data))
    out = bytearray(fixed) + header.data
    out += b"\0" * ((-len(out)) % 8)
    return serial, bytes(out) + body


def call(destination, path, interface, member, body=b"", signature=""):
    return message(1, [(1, "o", path), (2, "s", interface), (3, "s", member), (6, "s", destination)], body, signature)


def oversized_array(writer, in_variant):
    """An `av` of `elements` variants each holding a byte: 4 bytes on the wire each."""
    if in_variant:
        writer.signature("av")
    writer.uint32(elements * 4)
    writer.data += b"\x01y\x00\x07" * elements


sock = socket.socket(socket.AF_UNIX)
sock.connect(socket_path(address))
sock.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
if not sock.recv(4096).startswith(b"OK"):
    raise SystemExit("authentication refused")
sock.sendall(b"BEGIN\r\n")
buffer = bytearray()


def read_message():
    global buffer
    while True:
        if len(buffer) >= 16:
            body_length, fields_length = struct.unpack_from("<I", buffer, 4)[0], struct.unpack_from("<I", buffer, 12)[0]
            start = 16 + fields_length + ((-(16 + fields_length)) % 8)
            if len(buffer) >= start + body_length:
                raw = bytes(buffer[: start + body_length])
                buffer = buffer[start + body_length :]
                return parse(raw, fields_length, start)
        chunk = sock.recv(1 << 16)
        if not chunk:
            raise SystemExit("the bus closed the connection")
        buffer += chunk


def parse(raw, fields_length, start):
    kind = raw[1]
    offset, end, fields = 16, 16 + fields_length, {}
    while offset < end:
        offset += (-offset) % 8
        code = raw[offset]
        sig_length = raw[offset + 1]
        type_code = raw[offset + 2 : offset + 2 + sig_length].decode()
        offset += 3 + sig_length
        if type_code in ("s", "o"):
            offset += (-offset) % 4
            length = struct.unpack_from("<I", raw, offset)[0]
            fields[code] = raw[offset + 4 : offset + 4 + length].decode()
            offset += 5 + length
        elif type_code == "g":
            length = raw[offset]
            fields[code] = raw[offset + 1 : offset + 1 + length].decode()
            offset += 2 + length
        elif type_code == "u":
            offset += (-offset) % 4
            fields[code] = struct.unpack_from("<I", raw, offset)[0]
            offset += 4
    first_string = None
    if fields.get(8, "").startswith("s"):
        length = struct.unpack_from("<I", raw, start)[0]
        first_string = raw[start + 4 : start + 4 + length].decode(errors="replace")
    return {"kind": kind, "reply": fields.get(5), "error": fields.get(4), "text": first_string}


def wait_reply(number):
    while True:
        received = read_message()
        if received["reply"] == number:
            return received


hello, data = call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello")
sock.sendall(data)
wait_reply(hello)
body = Writer()
body.string(target_name)
owner_call, data = call(
    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", bytes(body.data), "s")
sock.sendall(data)
owner = wait_reply(owner_call)["text"]

results = {}
# One Properties.Set whose value is an `av` of `elements` v(y).
body = Writer()
body.string("org.kblink1.Keymap")
body.string("CurrentZone")
oversized_array(body, True)
set_call, data = call(owner, "/org/kblink1", "org.freedesktop.DBus.Properties", "Set", bytes(body.data), "ssv")
sock.sendall(data)
answer = wait_reply(set_call)
results["set"] = answer["error"] or "reply"

# One NameOwnerChanged sent to kblinkd alone, naming a name kblinkd follows, with the same array after it.
body = Writer()
body.string("org.bluez")
oversized_array(body, False)
_, data = message(
    4, [(1, "o", "/org/freedesktop/DBus"), (2, "s", "org.freedesktop.DBus"), (3, "s", "NameOwnerChanged"),
        (6, "s", owner)], bytes(body.data), "sav")
sock.sendall(data)
# Messages from one connection arrive in order: once Ping is answered, the signal has been handled.
ping, data = call(owner, "/org/kblink1", "org.freedesktop.DBus.Peer", "Ping")
sock.sendall(data)
answer = wait_reply(ping)
results["ping"] = answer["error"] or "reply"
print(json.dumps(results))
