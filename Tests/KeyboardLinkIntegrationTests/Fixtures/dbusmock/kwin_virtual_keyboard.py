'''python-dbusmock template: KWin's virtual keyboard (org.kde.KWin, /VirtualKeyboard), for kblink's OSK agent tests.

KWin serves org.kde.kwin.VirtualKeyboard with the properties enabled (read-write; KWin saves it in kwinrc), active
(read-write: whether the keyboard is shown for the focused text field) and visible (read-only), among others. The
mock starts with all three true (parameters enabled, active, visible override that); writes go through the mock's
Properties.Set.
'''

import dbus

BUS_NAME = 'org.kde.KWin'
MAIN_OBJ = '/VirtualKeyboard'
MAIN_IFACE = 'org.kde.kwin.VirtualKeyboard'
SYSTEM_BUS = False


def load(mock, parameters):
    mock.AddProperties(MAIN_IFACE, {
        'available': dbus.Boolean(True),
        'enabled': dbus.Boolean(parameters.get('enabled', True)),
        'active': dbus.Boolean(parameters.get('active', True)),
        'visible': dbus.Boolean(parameters.get('visible', True)),
        'activeClientSupportsTextInput': dbus.Boolean(True),
    })
