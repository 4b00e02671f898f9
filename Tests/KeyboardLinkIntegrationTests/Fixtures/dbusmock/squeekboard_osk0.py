'''python-dbusmock template: squeekboard's sm.puri.OSK0 on the session bus, for kblink's OSK agent tests.

squeekboard serves /sm/puri/OSK0 with the method SetVisible(b) and the property Visible (b); Phosh calls
SetVisible to show and hide the keyboard. The mock keeps Visible as the last SetVisible set it (parameter Visible:
the value it starts with, true by default).
'''

import dbus

BUS_NAME = 'sm.puri.OSK0'
MAIN_OBJ = '/sm/puri/OSK0'
MAIN_IFACE = 'sm.puri.OSK0'
SYSTEM_BUS = False


def load(mock, parameters):
    mock.AddProperties(MAIN_IFACE, {'Visible': dbus.Boolean(parameters.get('Visible', True))})
    mock.AddMethod(MAIN_IFACE, 'SetVisible', 'b', '',
                   "self.UpdateProperties('sm.puri.OSK0', {'Visible': dbus.Boolean(args[0])})")
