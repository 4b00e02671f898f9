# VIA's side of the raw HID protocol, as QMK answers it (docs/protocols.md): the real-stack rig's VIA keyboard.
# Pure Python, no Bluetooth: via_keyboard.py serves it over HID over GATT.


def say(*words):
    print(*words, flush=True)


class VIAFirmware:
    """QMK's VIA commands over the raw HID reports: 4 layers of a 6x18 matrix (the VGN 98Pro layout)."""

    def __init__(self, layers=4, rows=6, cols=18):
        self.layers, self.rows, self.cols = layers, rows, cols
        self.keymap = bytearray()
        for _ in range(layers):
            for i in range(rows * cols):
                code = 0x04 + i % 0x60
                self.keymap += bytes([code >> 8, code & 0xFF])
        self.macros = bytearray(512)
        self.requests = self.bad_lengths = 0

    def offset(self, layer, row, col):
        return ((layer * self.rows + row) * self.cols + col) * 2

    def handle(self, data):
        """The answer to one 32-byte report, or None for a report of the wrong size."""
        self.requests += 1
        if len(data) != 32:
            self.bad_lengths += 1
            say('event via-bad-length', len(data), data[:4].hex())
            return None
        r = bytearray(data)
        cmd = r[0]
        if cmd == 0x01:
            r[1], r[2] = 0x00, 0x0C
        elif cmd == 0x02:
            if r[1] == 0x04:
                r[2:6] = bytes([0, 1, 2, 3])
            elif r[1] in (0x01, 0x02):
                r[2:6] = bytes(4)
            else:
                r[0] = 0xFF
        elif cmd == 0x03:
            pass
        elif cmd == 0x04:
            o = self.offset(r[1], r[2], r[3])
            r[4:6] = self.keymap[o:o + 2]
        elif cmd == 0x05:
            o = self.offset(r[1], r[2], r[3])
            self.keymap[o:o + 2] = r[4:6]
        elif cmd == 0x0C:
            r[1] = 16
        elif cmd == 0x0D:
            r[1], r[2] = len(self.macros) >> 8, len(self.macros) & 0xFF
        elif cmd in (0x0E, 0x12):
            buf = self.macros if cmd == 0x0E else self.keymap
            o, n = (r[1] << 8) | r[2], r[3]
            r[4:4 + n] = bytes(buf[o + i] if o + i < len(buf) else 0 for i in range(n))
        elif cmd in (0x0F, 0x13):
            buf = self.macros if cmd == 0x0F else self.keymap
            o, n = (r[1] << 8) | r[2], r[3]
            for i in range(n):
                if o + i < len(buf):
                    buf[o + i] = r[4 + i]
        elif cmd == 0x10:
            self.macros = bytearray(len(self.macros))
        elif cmd == 0x11:
            r[1] = self.layers
        else:
            r[0] = 0xFF
        return bytes(r)
