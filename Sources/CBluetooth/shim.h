#ifndef KBLINK_CBLUETOOTH_SHIM_H
#define KBLINK_CBLUETOOTH_SHIM_H

#include <bluetooth/bluetooth.h>

#endif
