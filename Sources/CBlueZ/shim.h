#ifndef KBLINK_CBLUEZ_SHIM_H
#define KBLINK_CBLUEZ_SHIM_H

#include <dbus/dbus.h>
#include <bluetooth/bluetooth.h>

#endif
