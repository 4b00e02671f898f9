#!/bin/sh
# The real-stack rig, guest side (run as root inside the VM that scripts/real-bluez-test boots, never on a host):
# kernel modules, btvirt LE controllers on one emulated radio, the system dbus-daemon with kblinkd's policy,
# bluetoothd, then scenarios.py, which starts the keyboards and kblinkd and runs every scenario.
# Arguments: OUT (the writable shared folder: logs and results), BUILD (the folder holding kblinkd and kblink).
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
out=$1
build=$2
here=$(dirname "$(realpath "$0")")
repo=$(realpath "$here/../..")
cd "$out"
echo "guest: kernel $(uname -r), $(nproc) cpus"
# hid_apple: no udev in the guest loads it when the Mac-mode keyboard's uhid device appears.
for m in bluetooth hci_vhci uhid evdev hid_generic hid_apple uinput; do
  modprobe "$m" || echo "guest: modprobe $m failed"
done
# Every controller's HCI traffic, read by scenarios.py after a failure (hci_trace.py); on tmpfs, not the shared
# output folder, so that recording costs the emulated machine no 9p write per packet.
btmon -w /run/hci.btsnoop >/dev/null 2>&1 &
# Eight controllers: btvirt's first never answers its HCI Reset and stays dead; one host adapter and six keyboards.
btvirt -L -l8 >"$out/btvirt.log" 2>&1 &
i=0
while [ ! -e /sys/class/bluetooth/hci7 ] && [ $i -lt 120 ]; do sleep 0.5; i=$((i + 1)); done
conf=/run/realstack-system.conf
{
  echo '<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">'
  echo '<busconfig><include>/usr/share/dbus-1/system.conf</include>'
  echo "<include>$repo/systemd/org.kblink1.conf</include>"
  echo '</busconfig>'
} >"$conf"
mkdir -p /run/dbus /run/kblink-state
dbus-daemon --config-file="$conf" --fork --nopidfile || { echo "guest: dbus-daemon failed"; exit 1; }
# For reading after a failure: BlueZ's device signals and the calls made to BlueZ and kblinkd.
dbus-monitor --system "type='signal',interface='org.freedesktop.DBus.Properties',arg0='org.bluez.Device1'" \
  "type='signal',interface='org.freedesktop.DBus.ObjectManager'" "type='method_call',destination='org.bluez'" \
  "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'" >"$out/dbus-monitor.log" 2>&1 &
exec python3 -u "$here/scenarios.py" "$out" "$build"
